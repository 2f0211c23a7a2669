/** The merchant panel's webhook (functions/panel/webhooks.ts): its URL and secret, a test ping, the deliveries and a redelivery. */
import * as z from 'zod';
import { defineRoute, type AnyRoute } from '../route';
import { csrf, formErrors, HTML, notSignedIn, page, panelBrowser, stepUpFormAnswers } from './panel-common';

const WEBHOOKS = { fn: 'PanelWebhooks', handler: 'functions/panel/webhooks.ts' } as const;

export const panelWebhookRoutes = {
  panelWebhooksPage: defineRoute({
    id: 'PanelWebhooksPage',
    ...WEBHOOKS,
    method: 'GET',
    path: '/panel/webhooks',
    ...panelBrowser,
    access: 'write',
    summary: 'The account’s webhook: its URL, whether a secret exists, and the forms that change them',
    request: {},
    responses: { ...page('HTML page'), ...notSignedIn },
  }),
  panelSetWebhook: defineRoute({
    id: 'PanelSetWebhook',
    ...WEBHOOKS,
    changes: ['webhook.configured', 'panel.audited'],
    method: 'POST',
    path: '/panel/webhooks',
    ...panelBrowser,
    access: 'write',
    summary: 'Sets the webhook URL (step-up), as PUT /api/webhook does; the first one’s secret shown once',
    request: { form: z.object({ csrf_token: csrf, url: z.string().max(2048), code: z.string().max(16) }) },
    responses: {
      ...page('Saved: the URL, and the new secret once'),
      ...stepUpFormAnswers,
    },
  }),
  panelRotateWebhookSecret: defineRoute({
    id: 'PanelRotateWebhookSecret',
    ...WEBHOOKS,
    changes: ['webhook.secret_rotated', 'panel.audited'],
    method: 'POST',
    path: '/panel/webhooks/segredo',
    ...panelBrowser,
    access: 'write',
    summary: 'A new webhook signing secret (step-up), shown once; the old one stops at once',
    request: { form: z.object({ csrf_token: csrf, code: z.string().max(16) }) },
    responses: {
      ...page('The new secret, shown once'),
      ...stepUpFormAnswers,
      409: { description: 'No webhook configured yet', contentType: HTML },
    },
  }),
  panelTestWebhook: defineRoute({
    id: 'PanelTestWebhook',
    ...WEBHOOKS,
    changes: ['event.recorded', 'panel.audited'],
    method: 'POST',
    path: '/panel/webhooks/teste',
    ...panelBrowser,
    access: 'write',
    summary: 'Sends one ping event, as POST /api/webhook/test does (owners, admins, developers)',
    request: { form: z.object({ csrf_token: csrf }) },
    responses: {
      ...page('The webhook page: the event queued'),
      ...notSignedIn,
      ...formErrors,
      403: { description: 'The role may not, or the CSRF token does not match', contentType: HTML },
      409: { description: 'No webhook URL configured', contentType: HTML },
    },
  }),
  panelRedeliverWebhook: defineRoute({
    id: 'PanelRedeliverWebhook',
    ...WEBHOOKS,
    changes: ['webhook.redelivery_requested', 'panel.audited'],
    method: 'POST',
    path: '/panel/webhooks/reenviar',
    ...panelBrowser,
    access: 'write',
    summary: 'Redelivers one event: a new attempt series with the same id and body, once its last series ended (owners, admins, developers)',
    description: 'The operator’s `webhook redeliver` use case. Another account’s event, or an unknown one, answers 404; a series still running, 409.',
    request: { form: z.object({ csrf_token: csrf, event: z.string().max(128) }) },
    responses: {
      ...page('The webhook page: the redelivery queued'),
      ...notSignedIn,
      ...formErrors,
      403: { description: 'The role may not, or the CSRF token does not match', contentType: HTML },
      404: { description: 'Not an event of the account', contentType: HTML },
      409: { description: 'Its delivery is still running, or no webhook URL is configured', contentType: HTML },
    },
  }),
} satisfies Record<string, AnyRoute>;

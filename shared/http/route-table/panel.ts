/** The route table's rows of the merchant panel (issue 27): pages in pt-BR under /panel, served by a few functions (`fn`). */
import * as z from 'zod';
import { defineRoute, type AnyRoute } from '../route';
import { HTML } from './policies';
import { listCustomersQuerySchema } from '../../schemas/customer-query';

/** The panel's pages: a browser, counted per client IP ('public'); the session is the panel's own cookie, checked by each page. */
const panelBrowser = { auth: 'none', rateLimit: 'public', idempotency: 'none', usesMasterKey: true, browser: true, tag: 'Merchant panel' } as const;

const ACCESS = { fn: 'PanelAccess', handler: 'functions/panel/access.ts' } as const;
const HOME = { fn: 'PanelHome', handler: 'functions/panel/home.ts' } as const;
const SETTINGS = { fn: 'PanelSettings', handler: 'functions/panel/settings.ts' } as const;

const csrf = z.string().max(64).describe('The CSRF token the page gave');
const inviteParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Must be an invite token') });

const page = (description: string) => ({ 200: { description, contentType: HTML } });
const notSignedIn = { 303: { description: 'Not signed in: to the sign-in page', contentType: HTML } };
const formErrors = {
  400: { description: 'Not the page’s form (application/x-www-form-urlencoded)', contentType: HTML },
  403: { description: 'The form’s CSRF token does not match the browser’s cookie (reload the page)', contentType: HTML },
};

/** The answers of a signed-in form that asks a fresh authenticator code (step-up). */
const stepUpFormAnswers = {
  ...notSignedIn,
  ...formErrors,
  401: { description: 'Wrong or used code', contentType: HTML },
  403: { description: 'The role may not, or the CSRF token does not match', contentType: HTML },
};

export const panelRoutes = {
  panelSignInPage: defineRoute({
    id: 'PanelSignInPage',
    ...ACCESS,
    method: 'GET',
    path: '/panel/entrar',
    ...panelBrowser,
    access: 'read',
    summary: 'The panel’s sign-in page (e-mail and password)',
    request: {},
    responses: { ...page('HTML page; signed in already: 303 to /panel'), 303: { description: 'Signed in already: to /panel', contentType: HTML } },
  }),
  panelSignIn: defineRoute({
    id: 'PanelSignIn',
    ...ACCESS,
    method: 'POST',
    path: '/panel/entrar',
    ...panelBrowser,
    access: 'write',
    summary: 'The password step of a sign-in',
    description:
      'Right: 303 to the code page, with a session cookie that only the code completes. Wrong password or unknown e-mail: the same page and message (401). Past 10 failures of the e-mail, or 30 of the address, in 15 minutes: 429 before the password is checked.',
    request: { form: z.object({ csrf_token: csrf, email: z.string().max(254), password: z.string().max(128) }) },
    responses: {
      303: { description: 'To the code page', contentType: HTML },
      ...formErrors,
      401: { description: 'E-mail or password wrong (one answer for both)', contentType: HTML },
    },
  }),
  panelCodePage: defineRoute({
    id: 'PanelCodePage',
    ...ACCESS,
    method: 'GET',
    path: '/panel/entrar/codigo',
    ...panelBrowser,
    access: 'read',
    summary: 'The authenticator code page of a sign-in',
    request: {},
    responses: { ...page('HTML page'), 303: { description: 'No sign-in awaiting its code: to the sign-in page', contentType: HTML } },
  }),
  panelCode: defineRoute({
    id: 'PanelCode',
    ...ACCESS,
    method: 'POST',
    path: '/panel/entrar/codigo',
    ...panelBrowser,
    access: 'write',
    summary: 'The code step of a sign-in',
    description: 'A code of the authenticator not used before: 303 to /panel with a new session id. A wrong or replayed code: 401, counted as a failure.',
    request: { form: z.object({ csrf_token: csrf, code: z.string().max(16) }) },
    responses: {
      303: { description: 'Signed in: to /panel', contentType: HTML },
      ...formErrors,
      401: { description: 'Wrong or used code, or the sign-in expired (5 minutes)', contentType: HTML },
    },
  }),
  panelInvitePage: defineRoute({
    id: 'PanelInvitePage',
    ...ACCESS,
    method: 'GET',
    path: '/panel/convite/{token}',
    ...panelBrowser,
    access: 'read',
    summary: 'An invite’s enrollment page: a password and an authenticator',
    request: { params: inviteParams },
    responses: { ...page('HTML page with the QR code and the otpauth:// URI'), 404: { description: 'Unknown, used or expired invite', contentType: HTML } },
  }),
  panelAcceptInvite: defineRoute({
    id: 'PanelAcceptInvite',
    ...ACCESS,
    method: 'POST',
    path: '/panel/convite/{token}',
    ...panelBrowser,
    access: 'write',
    summary: 'Accepts an invite: the password and a code of the new authenticator',
    request: {
      params: inviteParams,
      form: z.object({ csrf_token: csrf, enrollment: z.string().max(512), password: z.string().max(128), confirmation: z.string().max(128), code: z.string().max(16) }),
    },
    responses: {
      303: { description: 'Enrolled: to the sign-in page', contentType: HTML },
      ...formErrors,
      404: { description: 'Unknown, used or expired invite', contentType: HTML },
      409: { description: 'The e-mail signs in to the panel already', contentType: HTML },
      422: { description: 'Password refused by the policy, confirmation different, or wrong code: the page again', contentType: HTML },
    },
  }),
  panelSignOut: defineRoute({
    id: 'PanelSignOut',
    ...ACCESS,
    method: 'POST',
    path: '/panel/sair',
    ...panelBrowser,
    access: 'write',
    summary: 'Signs out: the session ends at once',
    request: { form: z.object({ csrf_token: csrf }) },
    responses: { 303: { description: 'To the sign-in page', contentType: HTML }, ...formErrors },
  }),
  panelOverview: defineRoute({
    id: 'PanelOverview',
    ...HOME,
    method: 'GET',
    path: '/panel',
    ...panelBrowser,
    access: 'write',
    summary: 'The panel’s overview: balance available and reserved',
    request: {},
    responses: { ...page('HTML page'), ...notSignedIn },
  }),
  panelCustomers: defineRoute({
    id: 'PanelCustomers',
    ...HOME,
    method: 'GET',
    path: '/panel/clientes',
    ...panelBrowser,
    access: 'write',
    summary: 'The account’s customers, newest first, with GET /api/customers’ filters and pages',
    request: { query: listCustomersQuerySchema },
    responses: { ...page('HTML page'), ...notSignedIn },
  }),
  panelMethods: defineRoute({
    id: 'PanelMethods',
    ...HOME,
    method: 'GET',
    path: '/panel/metodos',
    ...panelBrowser,
    access: 'write',
    summary: 'The payment methods enabled for the account (enabling stays with the operator)',
    request: {},
    responses: { ...page('HTML page'), ...notSignedIn },
  }),
  panelKeysPage: defineRoute({
    id: 'PanelKeysPage',
    ...SETTINGS,
    method: 'GET',
    path: '/panel/chaves',
    ...panelBrowser,
    access: 'write',
    summary: 'The account’s API keys: the public key, and new keys for the roles that may',
    request: {},
    responses: { ...page('HTML page'), ...notSignedIn },
  }),
  panelRotateKeys: defineRoute({
    id: 'PanelRotateKeys',
    ...SETTINGS,
    method: 'POST',
    path: '/panel/chaves',
    ...panelBrowser,
    access: 'write',
    summary: 'Generates new API keys (step-up: a fresh authenticator code)',
    description:
      'Owners, admins and developers; a fresh code of the authenticator. The old keys and every token issued under them stop at once (spec 5.6); the new secret key is shown once on the answer page.',
    request: { form: z.object({ csrf_token: csrf, code: z.string().max(16) }) },
    responses: {
      ...page('The new keys, the secret shown once'),
      ...stepUpFormAnswers,
    },
  }),
  panelWebhooksPage: defineRoute({
    id: 'PanelWebhooksPage',
    ...SETTINGS,
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
    ...SETTINGS,
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
    ...SETTINGS,
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
  panelAuditLog: defineRoute({
    id: 'PanelAuditLog',
    ...SETTINGS,
    method: 'GET',
    path: '/panel/auditoria',
    ...panelBrowser,
    access: 'write',
    summary: 'The account’s audit log: every panel action, who, when, from which address (owners and admins)',
    request: {},
    responses: {
      ...page('HTML page'),
      ...notSignedIn,
      403: { description: 'The role may not read it', contentType: HTML },
    },
  }),
} satisfies Record<string, AnyRoute>;

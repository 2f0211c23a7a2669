/** The merchant panel's password recovery (functions/panel/recovery.ts): "Esqueci a senha" and the reset link's page. */
import * as z from 'zod';
import { defineRoute, type AnyRoute } from '../route';
import { csrf, formErrors, HTML, page, panelBrowser } from './panel-common';

const RECOVERY = { fn: 'PanelRecovery', handler: 'functions/panel/recovery.ts' } as const;

const resetParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Must be a reset token') });

export const panelRecoveryRoutes = {
  panelForgotPage: defineRoute({
    id: 'PanelForgotPage',
    ...RECOVERY,
    method: 'GET',
    path: '/panel/senha/esqueci',
    ...panelBrowser,
    access: 'read',
    summary: '“Esqueci a senha”: the e-mail to send a reset link to',
    request: {},
    responses: page('HTML page'),
  }),
  panelForgotPassword: defineRoute({
    id: 'PanelForgotPassword',
    ...RECOVERY,
    method: 'POST',
    path: '/panel/senha/esqueci',
    ...panelBrowser,
    access: 'write',
    summary: 'Mails a reset link (an hour, once) to the e-mail when it signs in to the panel',
    description:
      'The same answer whether the e-mail signs in or not. At most 3 links per e-mail in 15 minutes (more are not sent, the answer is the same); every request spends the per-address counter.',
    request: { form: z.object({ csrf_token: csrf, email: z.string().max(254) }) },
    responses: { ...page('The same answer for any e-mail'), ...formErrors },
  }),
  panelResetPage: defineRoute({
    id: 'PanelResetPage',
    ...RECOVERY,
    method: 'GET',
    path: '/panel/senha/redefinir/{token}',
    ...panelBrowser,
    access: 'read',
    summary: 'A reset link’s page: a new password and a code of the authenticator',
    request: { params: resetParams },
    responses: { ...page('HTML page'), 404: { description: 'Unknown, used or expired link', contentType: HTML } },
  }),
  panelResetPassword: defineRoute({
    id: 'PanelResetPassword',
    ...RECOVERY,
    method: 'POST',
    path: '/panel/senha/redefinir/{token}',
    ...panelBrowser,
    access: 'write',
    summary: 'A new password through a reset link: the link once, the policy, a code of the authenticator; every session ends',
    request: {
      params: resetParams,
      form: z.object({ csrf_token: csrf, password: z.string().max(128), confirmation: z.string().max(128), code: z.string().max(16) }),
    },
    responses: {
      ...page('Saved: sign in with the new password'),
      ...formErrors,
      401: { description: 'Wrong or used code (counted as a sign-in failure)', contentType: HTML },
      404: { description: 'Unknown, used or expired link', contentType: HTML },
      409: { description: 'The link was used meanwhile', contentType: HTML },
      422: { description: 'Password refused by the policy, or the confirmation differs', contentType: HTML },
    },
  }),
} satisfies Record<string, AnyRoute>;

/** The merchant panel's settings (functions/panel/settings.ts): the API keys, the audit log, the team. */
import * as z from 'zod';
import { defineRoute, type AnyRoute } from '../route';
import { csrf, HTML, notSignedIn, page, panelBrowser, stepUpFormAnswers } from './panel-common';

const SETTINGS = { fn: 'PanelSettings', handler: 'functions/panel/settings.ts' } as const;

export const panelSettingsRoutes = {
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
  panelTeam: defineRoute({
    id: 'PanelTeam',
    ...SETTINGS,
    method: 'GET',
    path: '/panel/equipe',
    ...panelBrowser,
    access: 'write',
    summary: 'The account’s panel team: people and roles; invite, role and removal forms for owners and admins',
    request: {},
    responses: { ...page('HTML page'), ...notSignedIn },
  }),
  panelInvitePerson: defineRoute({
    id: 'PanelInvitePerson',
    ...SETTINGS,
    method: 'POST',
    path: '/panel/equipe',
    ...panelBrowser,
    access: 'write',
    summary: 'Invites a person (step-up), as `npm run admin -- panel invite` does: a link that works once, for 72 hours',
    description: 'Owners and admins; only an owner invites an owner. The link is shown once on the answer page and sent by e-mail.',
    request: { form: z.object({ csrf_token: csrf, email: z.string().max(254), role: z.string().max(16), code: z.string().max(16) }) },
    responses: {
      ...page('The invite sent, its link shown once'),
      ...stepUpFormAnswers,
      409: { description: 'The e-mail already signs in to the panel', contentType: HTML },
      422: { description: 'A field is invalid (the page names it)', contentType: HTML },
    },
  }),
  panelChangeRole: defineRoute({
    id: 'PanelChangeRole',
    ...SETTINGS,
    method: 'POST',
    path: '/panel/equipe/papel',
    ...panelBrowser,
    access: 'write',
    summary: 'Changes a person’s role (step-up); the last owner is never demoted',
    request: { form: z.object({ csrf_token: csrf, person: z.string().max(64), role: z.string().max(16), code: z.string().max(16) }) },
    responses: {
      ...stepUpFormAnswers,
      303: { description: 'Changed: to the team page (not signed in: to the sign-in page)', contentType: HTML },
      404: { description: 'Not a person of the account', contentType: HTML },
      409: { description: 'The person changed meanwhile', contentType: HTML },
      422: { description: 'Not a role', contentType: HTML },
    },
  }),
  panelRemovePerson: defineRoute({
    id: 'PanelRemovePerson',
    ...SETTINGS,
    method: 'POST',
    path: '/panel/equipe/remover',
    ...panelBrowser,
    access: 'write',
    summary: 'Removes a person from the panel (step-up): their sessions stop at once; the last owner is never removed',
    request: { form: z.object({ csrf_token: csrf, person: z.string().max(64), code: z.string().max(16) }) },
    responses: {
      ...stepUpFormAnswers,
      303: { description: 'Removed: to the team page (not signed in: to the sign-in page)', contentType: HTML },
      404: { description: 'Not a person of the account', contentType: HTML },
      409: { description: 'The person changed meanwhile', contentType: HTML },
    },
  }),
} satisfies Record<string, AnyRoute>;

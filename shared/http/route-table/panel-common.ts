/** What the merchant panel's route rows share (issue 27): pages in pt-BR under /panel, a few functions (`fn`), one per area. */
import * as z from 'zod';
import { HTML } from './policies';

export { HTML };
export const CSV = 'text/csv; charset=utf-8';

/** The panel's pages: a browser, counted per client IP ('public'); the session is the panel's own cookie, checked by each page. */
export const panelBrowser = { auth: 'none', rateLimit: 'public', idempotency: 'none', usesMasterKey: true, browser: true, tag: 'Merchant panel' } as const;

export const csrf = z.string().max(64).describe('The CSRF token the page gave');

export const page = (description: string) => ({ 200: { description, contentType: HTML } });
export const notSignedIn = { 303: { description: 'Not signed in: to the sign-in page', contentType: HTML } };
export const formErrors = {
  400: { description: 'Not the page’s form (application/x-www-form-urlencoded)', contentType: HTML },
  403: { description: 'The form’s CSRF token does not match the browser’s cookie (reload the page)', contentType: HTML },
};

/** The answers of a signed-in form that asks a fresh authenticator code (step-up). */
export const stepUpFormAnswers = {
  ...notSignedIn,
  ...formErrors,
  401: { description: 'Wrong or used code', contentType: HTML },
  403: { description: 'The role may not, or the CSRF token does not match', contentType: HTML },
};

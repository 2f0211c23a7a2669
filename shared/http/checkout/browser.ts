import { HTML_TYPE, type RouteResult } from '../answer';
import type { ErrorAnswer } from '../errors';
import { type ErrorPageView, renderErrorPage } from '../../pages/checkout/page';

/**
 * The codes of the checkout's own refusals, whose messages are written for the payer (pt-BR); any other
 * error (a malformed path, a busy table, an internal failure) shows the page's own text for its status.
 */
const PAYER_MESSAGES: ReadonlySet<string> = new Set([
  'unknown_public_key',
  'account_disabled',
  'method_not_enabled',
  'invalid_signature',
  'signature_required',
  'tx_ref_in_use',
  'checkout_not_found',
  'checkout_already_paid',
  'card_in_progress',
  'checkout_abandoned',
  'csrf_mismatch',
  'card_declined',
  'upstream_error',
]);

const PAGE_STATUSES: ReadonlySet<number> = new Set([400, 403, 404, 409, 410, 413, 422, 429, 500, 502, 503]);

/** The HTML page of an error answer of a checkout route (same status; the answer's headers, e.g. Retry-After, are kept by the pipeline). */
export function checkoutErrorPage(answer: ErrorAnswer): { html: string; headers: Record<string, string> } {
  const status = (PAGE_STATUSES.has(answer.status) ? answer.status : 500) as ErrorPageView['status'];
  const { error, code } = answer.body;
  if (typeof error !== 'string') return renderErrorPage({ status, fieldErrors: error });
  return renderErrorPage({ status, ...(code !== undefined && PAYER_MESSAGES.has(code) ? { message: error } : {}) });
}

/** The raw form body of a browser's post (API Gateway base64-encodes bodies it takes as binary). */
export { formBody, isFormPost } from '../form-body';

/** 303 See Other: after a form post, the browser GETs `location`. */
export function seeOther(location: string): RouteResult {
  return { status: 303, body: '', contentType: HTML_TYPE, headers: { Location: location } };
}

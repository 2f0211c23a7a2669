import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { HTML_TYPE, type RouteResult } from '../answer';
import type { ErrorAnswer } from '../errors';
import { BadRequestError, DomainError } from '../../domain/errors';
import { panelErrorPage } from '../../pages/panel/error-page';
import type { PanelPage } from '../../pages/panel/page-kit';
import { formBody, isFormPost } from '../form-body';
import { csrfTokenMatches, newPreSessionValue, panelCookie, PRE_SESSION_COOKIE, preSessionCookie } from './cookies';

/** A panel page as the route's answer. */
export function pageAnswer(status: number, page: PanelPage, cookies?: string[]): RouteResult {
  return { status, body: page.html, contentType: page.contentType ?? HTML_TYPE, headers: page.headers, ...(cookies && cookies.length > 0 ? { cookies } : {}) };
}

/** 303 See Other to a panel path, with cookies set or cleared on the way. */
export function redirectTo(location: string, cookies?: string[]): RouteResult {
  return { status: 303, body: '', contentType: HTML_TYPE, headers: { Location: location }, ...(cookies && cookies.length > 0 ? { cookies } : {}) };
}

/** The error answers of the panel's routes as its own HTML page (same status). */
export function panelErrorAnswerPage(answer: ErrorAnswer): PanelPage {
  const { error } = answer.body;
  if (typeof error !== 'string') return panelErrorPage(answer.status, 'Confira os dados enviados.', error);
  return panelErrorPage(answer.status, answer.status >= 500 ? undefined : error);
}

/** The pre-session cookie the request brings, or a new one to set: the sign-in and enrollment forms' CSRF tokens bind to it. */
export function preSession(event: APIGatewayProxyEventV2): { value: string; setCookie: string[] } {
  const given = panelCookie(event.cookies, PRE_SESSION_COOKIE);
  if (given) return { value: given, setCookie: [] };
  const value = newPreSessionValue();
  return { value, setCookie: [preSessionCookie(value)] };
}

/**
 * A panel form's fields, once it is the page's form (urlencoded: 400 otherwise) with a CSRF token
 * matching the cookie it binds to (403 otherwise: nothing is read or changed).
 */
export function panelForm(event: APIGatewayProxyEventV2, key: Buffer, cookieValue: string | undefined): URLSearchParams {
  if (!isFormPost(event.headers?.['content-type'])) {
    throw new BadRequestError('Envie o formulário da página (application/x-www-form-urlencoded).', 'unsupported_content_type');
  }
  const fields = new URLSearchParams(formBody(event));
  const tokens = fields.getAll('csrf_token');
  if (tokens.length !== 1 || !csrfTokenMatches(key, cookieValue, tokens[0])) {
    throw new DomainError('forbidden', 'Esta página expirou. Volte, recarregue a página e tente de novo.', 'csrf_mismatch');
  }
  return fields;
}

/** One text field of a form (absent: empty), bounded. */
export function field(fields: URLSearchParams, name: string, max: number): string {
  return (fields.get(name) ?? '').slice(0, max);
}

/**
 * A password field of a form, whole (absent: empty): never cut, so that a password past the policy's
 * ceiling is refused when set and simply wrong at a sign-in, instead of matching the password it
 * starts with (issue 43). The request body's own limit (1 MB) bounds it.
 */
export function passwordField(fields: URLSearchParams, name: string): string {
  return fields.get(name) ?? '';
}

export function userAgentOf(event: APIGatewayProxyEventV2): string {
  return (event.headers?.['user-agent'] ?? '').slice(0, 256);
}

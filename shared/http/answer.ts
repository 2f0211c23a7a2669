import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { StoreWrite } from '../ports/commit';
import type { Change } from '../domain/changes';
import type { ErrorAnswer } from './errors';

/** What a route implementation returns: status, body, and the changes to commit atomically with it. */
export type RouteResult = {
  status: number;
  body: unknown;
  /** Defaults to application/json; any other type takes a string body as is. */
  contentType?: string;
  headers?: Record<string, string>;
  /** Set-Cookie values (API Gateway payload 2.0 `cookies`): only the browser-facing checkout sets any. */
  cookies?: string[];
  /**
   * Raw writes, for the test-only probe route (test/support/probe-route.ts) alone: the pipeline refuses
   * them from a deployed route (functions/), whose writes are its changes, so that its grants derive from them.
   */
  writes?: StoreWrite[];
  /** What the use case changed (typed facts): compiled into one transaction with the idempotency record (only the kinds the route's row names). */
  changes?: Change[];
  /**
   * Undoes what the implementation did outside the table (e.g. voids a card authorization) when the commit
   * failed. It may run when the commit's outcome is unknown: it must re-check what was recorded first.
   */
  compensate?: () => Promise<void>;
};

/** A serialized answer: what is stored for idempotent replay and what goes on the wire. */
export type Answer = {
  status: number;
  body: string;
  contentType: string;
  headers: Record<string, string>;
  cookies?: string[];
};

export const JSON_TYPE = 'application/json; charset=utf-8';

export function serializeResult(result: RouteResult): Answer {
  const contentType = result.contentType ?? JSON_TYPE;
  const body = contentType === JSON_TYPE ? JSON.stringify(result.body) : String(result.body);
  return { status: result.status, body, contentType, headers: result.headers ?? {}, ...(result.cookies ? { cookies: result.cookies } : {}) };
}

/** The one place an API Gateway (payload 2.0) response is built. */
export function toApiResult(answer: Answer): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: answer.status,
    headers: {
      'Content-Type': answer.contentType,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      ...answer.headers,
    },
    ...(answer.cookies && answer.cookies.length > 0 ? { cookies: answer.cookies } : {}),
    body: answer.body,
    isBase64Encoded: false,
  };
}

export const HTML_TYPE = 'text/html; charset=utf-8';

/** Renders an error answer as an HTML page (browser-facing routes): the page's body and its own headers (e.g. CSP). */
export type ErrorPage = (answer: ErrorAnswer) => { html: string; headers: Record<string, string> };

/** The response for an error already mapped by the error module: JSON, or the route's HTML page. */
export function errorApiResult(answer: ErrorAnswer, errorPage?: ErrorPage): APIGatewayProxyStructuredResultV2 {
  if (errorPage) {
    const page = errorPage(answer);
    return toApiResult({ status: answer.status, body: page.html, contentType: HTML_TYPE, headers: { ...page.headers, ...answer.headers } });
  }
  return toApiResult({ status: answer.status, body: JSON.stringify(answer.body), contentType: JSON_TYPE, headers: answer.headers });
}

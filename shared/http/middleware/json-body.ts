import httpJsonBodyParser from '@middy/http-json-body-parser';
import { BadRequestError, PayloadTooLargeError } from '../../domain/errors';
import { firstDuplicateKey, nestsDeeperThan } from '../json-structure';
import type { PipelineMiddleware, PipelineRequest } from '../state';

import { MAX_BODY_BYTES } from '../request-limits';

export { MAX_BODY_BYTES };
/** How deep arrays and objects may nest in a JSON body; ours are flat, so this is generous. */
export const MAX_JSON_DEPTH = 32;

const NOT_AN_OBJECT = 'The request body must be a JSON object';

/** The body's size in bytes as the client sent it (API Gateway base64-encodes bodies it takes as binary). */
function bodyBytes(body: string, isBase64Encoded: boolean | undefined): number {
  return isBase64Encoded ? Buffer.byteLength(body, 'base64') : Buffer.byteLength(body, 'utf8');
}

function invalidBody(message: string): BadRequestError {
  return new BadRequestError(message, 'invalid_body');
}

/**
 * Body rules of every route, before anything reads the body. Any route: a body over 1 MB → 413
 * `payload_too_large` (API Gateway takes up to 10 MB and Lambda 6 MB, so the limit must be ours).
 * Routes that take a body: parsed with @middy/http-json-body-parser (the Content-Type is not
 * demanded); not JSON, not an object, nested deeper than 32 levels or holding `__proto__` → 400
 * `invalid_body`; a key repeated in one object → 400 `duplicate_key` (spec 7 shapes).
 */
export function jsonBody(): PipelineMiddleware {
  const parser = httpJsonBodyParser({ disableContentTypeCheck: true });
  return {
    before: async (request: PipelineRequest) => {
      const { event } = request;
      const raw = typeof event.body === 'string' ? event.body : undefined;
      if (raw !== undefined && bodyBytes(raw, event.isBase64Encoded) > MAX_BODY_BYTES) {
        throw new PayloadTooLargeError(MAX_BODY_BYTES);
      }
      if (!request.context.state.route.request.body) return;
      const text = raw === undefined ? '' : event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
      if (text.trim() === '') throw invalidBody(NOT_AN_OBJECT);
      if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw invalidBody(`The request body nests deeper than ${MAX_JSON_DEPTH} levels`);
      try {
        await parser.before?.(request as never);
      } catch (err) {
        const forbidden = (err as { message?: unknown } | null)?.message === 'Forbidden key in JSON body';
        throw invalidBody(forbidden ? 'The request body holds a forbidden key (__proto__ or constructor.prototype)' : 'The request body is not valid JSON');
      }
      const parsed: unknown = event.body;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalidBody(NOT_AN_OBJECT);
      const duplicate = firstDuplicateKey(text);
      if (duplicate !== undefined) {
        throw new BadRequestError(`The key ${JSON.stringify(duplicate.slice(0, 100))} appears twice in one object of the request body`, 'duplicate_key');
      }
    },
  };
}

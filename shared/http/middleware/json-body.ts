import httpJsonBodyParser from '@middy/http-json-body-parser';
import { BadRequestError } from '../errors';
import type { PipelineMiddleware, PipelineRequest } from '../state';

const NOT_AN_OBJECT = 'The request body must be a JSON object';

/**
 * Parses a JSON body with @middy/http-json-body-parser on routes that take one. A body that is not
 * JSON, or is JSON but not an object, is a 400 (spec 7). The Content-Type is not demanded.
 */
export function jsonBody(): PipelineMiddleware {
  const parser = httpJsonBodyParser({ disableContentTypeCheck: true });
  return {
    before: async (request: PipelineRequest) => {
      if (!request.context.state.route.request.body) return;
      const raw = request.event.body;
      if (raw === undefined || raw === null || raw.trim() === '') throw new BadRequestError(NOT_AN_OBJECT, 'invalid_body');
      try {
        await parser.before?.(request as never);
      } catch {
        throw new BadRequestError('The request body is not valid JSON', 'invalid_body');
      }
      const parsed: unknown = request.event.body;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new BadRequestError(NOT_AN_OBJECT, 'invalid_body');
    },
  };
}

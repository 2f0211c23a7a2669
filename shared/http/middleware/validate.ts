import { type FieldErrors, ValidationError } from '../errors';
import type { PipelineMiddleware } from '../state';
import { collect } from '../validation';

/** Checks path parameters, query and body against the route's zod schemas; all problems in one 422. */
export function validateInput(): PipelineMiddleware {
  return {
    before: (request) => {
      const { state } = request.context;
      const { request: schemas } = state.route;
      const errors: FieldErrors = {};
      const params = collect(schemas.params, request.event.pathParameters ?? {}, errors, 'path');
      const query = collect(schemas.query, request.event.queryStringParameters ?? {}, errors, 'query');
      const body = collect(schemas.body, request.event.body, errors, 'body');
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      state.input = { body, query, params };
    },
  };
}

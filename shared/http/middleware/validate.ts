import { BadRequestError, type FieldErrors, ValidationError } from '../../domain/errors';
import type { PipelineMiddleware } from '../state';
import { collect } from '../validation';

/**
 * Checks path parameters, query and body against the route's zod schemas. A malformed path
 * parameter (e.g. a non-numeric id) is a 400, as the spec's lookups say; query and body problems
 * are reported together in one 422 with every field (a route may ask for 400 on a bad query).
 */
export function validateInput(): PipelineMiddleware {
  return {
    before: (request) => {
      const { state } = request.context;
      const { request: schemas } = state.route;
      const pathErrors: FieldErrors = {};
      const params = collect(schemas.params, request.event.pathParameters ?? {}, pathErrors, 'path');
      const badPath = Object.keys(pathErrors);
      if (badPath.length > 0) throw new BadRequestError(`Invalid path parameter: ${badPath.join(', ')}`, 'invalid_path_parameter');
      const errors: FieldErrors = {};
      const query = collect(schemas.query, request.event.queryStringParameters ?? {}, errors, 'query');
      const badQuery = Object.keys(errors);
      if (badQuery.length > 0 && state.route.badQueryStatus === 400)
        throw new BadRequestError(`Invalid query parameter: ${badQuery.join(', ')}`, 'invalid_query');
      const body = collect(schemas.body, request.event.body, errors, 'body');
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      state.input = { body, query, params };
    },
  };
}

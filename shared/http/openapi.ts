import { toJSONSchema, type ZodObject, type ZodType } from 'zod';
import { API_VERSION, generalErrorSchema, internalErrorSchema, validationErrorSchema } from '../schemas/common';
import { HTML_TYPE, JSON_TYPE } from './answer';
import type { AnyRoute, ResponseDef } from './route';
import { pathParameterNames } from './route';

type Json = Record<string, unknown>;

/** Converts zod schemas to JSON Schema 2020-12 (OpenAPI 3.1's dialect), hoisting named schemas into components. */
class SchemaCollector {
  readonly components: Record<string, unknown> = {};

  convert(schema: ZodType, io: 'input' | 'output'): Json {
    const converted = toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
    const { $schema: _dialect, $defs, ...rest } = converted;
    for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
      this.components[name] ??= this.relink(def);
    }
    return this.relink(rest) as Json;
  }

  private relink(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((v) => this.relink(v));
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value as Json).map(([k, v]) => [
          k,
          k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : this.relink(v),
        ]),
      );
    }
    return value;
  }
}

function objectShape(schema: ZodType | undefined): Record<string, ZodType> {
  const shape = (schema as ZodObject | undefined)?.shape;
  return shape ? (shape as Record<string, ZodType>) : {};
}

function parameters(route: AnyRoute, schemas: SchemaCollector): Json[] {
  const pathShape = objectShape(route.request.params);
  const inPath = pathParameterNames(route.path).map((name) => {
    const field = pathShape[name];
    return { name, in: 'path', required: true, schema: field ? schemas.convert(field, 'input') : { type: 'string' } };
  });
  const inQuery = Object.entries(objectShape(route.request.query)).map(([name, field]) => ({
    name,
    in: 'query',
    required: !field.safeParse(undefined).success,
    schema: schemas.convert(field, 'input'),
  }));
  const idempotency =
    route.idempotency === 'none'
      ? []
      : [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: route.idempotency === 'required',
            description:
              '8 to 100 characters from A-Za-z0-9_.:-. Same key and body: the first answer is replayed with `Idempotent-Replayed: true`. Records expire after 24 hours.',
            schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{8,100}$' },
          },
        ];
  return [...inPath, ...inQuery, ...idempotency];
}

/** The media type of a form body a browser posts. */
export const FORM_TYPE = 'application/x-www-form-urlencoded';

/** A See Other answer's target: a path of this API or an absolute URL (e.g. the merchant's callback_url). */
const LOCATION_HEADER: Json = {
  Location: { description: 'Where the browser goes next (with GET)', schema: { type: 'string', format: 'uri-reference' } },
};

function jsonResponse(description: string, schema: Json, headers?: Json): Json {
  return { description, content: { 'application/json': { schema } }, ...(headers ? { headers } : {}) };
}

/** An error of a browser-facing route: an HTML page with the same status (and headers, e.g. Retry-After). */
function htmlResponse(description: string, headers?: Json): Json {
  return { description, content: { [HTML_TYPE]: { schema: { type: 'string' } } }, ...(headers ? { headers } : {}) };
}

/**
 * A declared response: its own content type (any but JSON is a string), its schema, or the JSON error
 * object; on a browser-facing route, an error without either is the route's HTML page. A redirect
 * without either has no content, and every 303 has its Location.
 */
function declaredResponse(route: AnyRoute, status: number, def: ResponseDef, schemas: SchemaCollector): Json {
  const headers = status === 303 ? { headers: LOCATION_HEADER } : {};
  const isRedirect = status >= 300 && status < 400;
  if (!def.schema && !def.contentType && isRedirect) return { description: def.description, ...headers };
  const contentType = def.contentType ?? (route.browser && !def.schema && status >= 400 ? HTML_TYPE : 'application/json');
  const schema = def.schema
    ? schemas.convert(def.schema, 'output')
    : contentType !== 'application/json'
      ? { type: 'string' }
      : schemas.convert(generalErrorSchema, 'output');
  return { description: def.description, content: { [contentType]: { schema } }, ...headers };
}

function responses(route: AnyRoute, schemas: SchemaCollector): Json {
  const out: Json = {};
  for (const [status, def] of Object.entries(route.responses) as [string, ResponseDef][]) {
    out[status] = declaredResponse(route, Number(status), def, schemas);
  }
  const general = schemas.convert(generalErrorSchema, 'output');
  // A browser-facing route answers its errors as HTML pages (shared/http/answer.ts errorApiResult), not JSON.
  const add = (status: number, description: string, schema: Json = general, headers?: Json) => {
    out[String(status)] ??= route.browser ? htmlResponse(description, headers) : jsonResponse(description, schema, headers);
  };
  const takesInput = route.request.body || route.request.form || route.request.query || route.request.params || route.idempotency !== 'none';
  if (route.request.body || route.auth === 'basic')
    add(
      400,
      'Malformed request (body not a JSON object, nested deeper than 32 levels, or repeating a key: code duplicate_key; malformed credentials) or a business rule refused it',
    );
  if (route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH') add(413, 'The request body is larger than 1 MB (code payload_too_large)');
  if (route.auth !== 'none') add(401, 'Missing, invalid, expired or revoked credentials');
  if (route.idempotency !== 'none') add(409, 'A request with this Idempotency-Key is still being processed (code idempotency_in_progress)');
  if (takesInput) {
    const invalid = route.browser
      ? 'Invalid fields: a page listing them'
      : 'Invalid fields, or an Idempotency-Key reused with another body (code idempotency_key_reused)';
    add(422, invalid, schemas.convert(validationErrorSchema, 'output'));
  }
  if (route.rateLimit !== 'none') {
    add(429, 'Rate limit exceeded', general, { 'Retry-After': { description: 'Whole seconds until a request would pass', schema: { type: 'integer' } } });
  }
  add(
    500,
    route.browser ? 'Unexpected failure: a page asking to try again' : 'Unexpected failure; safe to retry with the same Idempotency-Key',
    schemas.convert(internalErrorSchema, 'output'),
  );
  return out;
}

/** A JSON body, or a form a browser posts (its fields as the schema's properties, all strings). */
function requestBody(route: AnyRoute, schemas: SchemaCollector): Json {
  const content: Json = {};
  if (route.request.body) content['application/json'] = { schema: schemas.convert(route.request.body, 'input') };
  if (route.request.form) content[FORM_TYPE] = { schema: schemas.convert(route.request.form, 'input') };
  return Object.keys(content).length > 0 ? { requestBody: { required: true, content } } : {};
}

/** The OpenAPI 3.1 document, generated from the route table and the zod schemas that validate requests. */
export function buildOpenApiDocument(routes: readonly AnyRoute[]): Json {
  const schemas = new SchemaCollector();
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const security = route.auth === 'basic' ? [{ basicAuth: [] }] : route.auth === 'bearer' ? [{ bearerAuth: [] }] : [];
    const operation: Json = {
      operationId: route.id,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      security,
      parameters: parameters(route, schemas),
      ...requestBody(route, schemas),
      responses: responses(route, schemas),
    };
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment Gateway API',
      version: API_VERSION,
      description: `Pix, boleto and card charges, Pix withdrawals, customers and signed webhooks for Brazilian merchants. Amounts are decimal strings in BRL. Responses are ${JSON_TYPE}${
        routes.some((route) => route.browser) ? `, except the hosted checkout's pages and form targets, which answer ${HTML_TYPE} (errors included)` : ''
      }.`,
    },
    paths,
    components: {
      schemas: schemas.components,
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'public_key:secret_key, only on POST /api/auth' },
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The token from POST /api/auth' },
      },
    },
  };
}

import { toJSONSchema, type ZodObject, type ZodType } from 'zod';
import { API_VERSION, generalErrorSchema, internalErrorSchema, validationErrorSchema } from '../schemas/common';
import { HTML_TYPE, JSON_TYPE } from './answer';
import type { AnyRoute, ResponseDef } from './route';
import { pathParameterNames } from './route';
import { RAW_REQUESTS } from './routes';
import { mayBeRateLimited } from '../route-policy';

type Json = Record<string, unknown>;

/**
 * The longest string an anchored regular expression (`^…$`) can match, or undefined when it is not
 * anchored at both ends, has an unbounded repetition, or uses a construct this reader does not follow
 * (back-references). Lets the document state the maxLength a pattern already enforces.
 */
export function patternMaxLength(pattern: string): number | undefined {
  if (!pattern.startsWith('^') || !pattern.endsWith('$') || pattern.endsWith('\\$')) return undefined;
  let i = 0;
  const unsupported = Symbol('unsupported');
  const fail = (): never => {
    throw unsupported;
  };
  // alternation := sequence ('|' sequence)*; sequence := (atom quantifier?)*
  const alternation = (): number => {
    let best = sequence();
    while (pattern[i] === '|') {
      i += 1;
      best = Math.max(best, sequence());
    }
    return best;
  };
  const atom = (): number => {
    const c = pattern[i] ?? '';
    if (c === '^' || c === '$') {
      i += 1;
      return 0;
    }
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9k]/.test(next)) fail();
      if (next === 'b' || next === 'B') {
        i += 2;
        return 0;
      }
      if (next === 'u' && pattern[i + 2] === '{') i = pattern.indexOf('}', i) + 1;
      else if (next === 'u') i += 6;
      else if (next === 'x') i += 4;
      else if (next === 'p' || next === 'P') i = pattern.indexOf('}', i) + 1;
      else i += 2;
      if (i <= 0) fail();
      return 1;
    }
    if (c === '[') {
      i += 1;
      if (pattern[i] === '^') i += 1;
      if (pattern[i] === ']') i += 1;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      if (pattern[i] !== ']') fail();
      i += 1;
      return 1;
    }
    if (c === '(') {
      i += 1;
      let lookaround = false;
      if (pattern[i] === '?') {
        const kind = pattern.slice(i, i + 3);
        if (kind.startsWith('?:')) i += 2;
        else if (kind.startsWith('?=') || kind.startsWith('?!')) [i, lookaround] = [i + 2, true];
        else if (kind === '?<=' || kind === '?<!') [i, lookaround] = [i + 3, true];
        else if (kind.startsWith('?<')) i = pattern.indexOf('>', i) + 1;
        else fail();
      }
      const inner = alternation();
      if (pattern[i] !== ')') fail();
      i += 1;
      return lookaround ? 0 : inner;
    }
    if (c === ')' || c === '|' || c === '' || c === '*' || c === '+' || c === '?' || c === '{') fail();
    i += 1;
    return 1;
  };
  const quantified = (length: number): number => {
    const c = pattern[i];
    let times = 1;
    if (c === '?') [i, times] = [i + 1, 1];
    else if (c === '*' || c === '+') return length === 0 ? (i++, 0) : Infinity;
    else if (c === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (!match) return length;
      i += match[0].length;
      times = match[2] === undefined ? Number(match[1]) : match[3] === '' ? Infinity : Number(match[3]);
    } else return length;
    if (pattern[i] === '?') i += 1;
    return length === 0 ? 0 : length * times;
  };
  const sequence = (): number => {
    let total = 0;
    while (i < pattern.length && pattern[i] !== '|' && pattern[i] !== ')') total += quantified(atom());
    return total;
  };
  try {
    const length = alternation();
    return i === pattern.length && Number.isFinite(length) ? length : undefined;
  } catch (err) {
    if (err === unsupported) return undefined;
    throw err;
  }
}

const INT32 = 2 ** 31;

/**
 * States the limits a zod schema already enforces where JSON Schema leaves them implicit: an integer's
 * format and bounds (zod's integers are safe integers) and a string's maxLength when its anchored
 * pattern bounds it.
 */
function withStatedLimits(schema: Json): Json {
  const out: Json = { ...schema };
  const types = Array.isArray(out.type) ? (out.type as unknown[]) : [out.type];
  if (types.includes('integer')) {
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = Number.MIN_SAFE_INTEGER;
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = Number.MAX_SAFE_INTEGER;
    const low = Number(out.minimum ?? out.exclusiveMinimum);
    const high = Number(out.maximum ?? out.exclusiveMaximum);
    out.format ??= low >= -INT32 && high < INT32 ? 'int32' : 'int64';
  }
  if (types.includes('string') && out.maxLength === undefined && typeof out.pattern === 'string') {
    const max = patternMaxLength(out.pattern);
    if (max !== undefined) out.maxLength = max;
  }
  return out;
}

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
      return withStatedLimits(
        Object.fromEntries(
          Object.entries(value as Json).map(([k, v]) => [
            k,
            k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : this.relink(v),
          ]),
        ),
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
            schema: { type: 'string', minLength: 8, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]{8,100}$' },
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

/** The Retry-After header of a 429 or a 503: whole seconds, at least 1 (a rate window is 60 s; a conflict asks for a few). */
const RETRY_AFTER: Json = {
  'Retry-After': { description: 'Whole seconds until a request would pass', schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 3600 } },
};

/**
 * The answers every route may give besides the ones it declares, from what the pipeline does
 * (shared/http/pipeline.ts and its middleware, shared/http/errors.ts): malformed input, size limits,
 * credentials, idempotency, validation, rate limits, transient conflicts and unexpected failures.
 */
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
  const { request } = route;
  const takesInput = request.body || request.form || request.query || request.params || route.idempotency !== 'none';
  const badRequest = [
    request.body ? 'body not a JSON object, nested deeper than 32 levels, or repeating a key (code duplicate_key)' : undefined,
    route.auth === 'basic' ? 'malformed credentials' : undefined,
    request.params ? 'a malformed path parameter (code invalid_path_parameter)' : undefined,
    request.query && route.badQueryStatus === 400 ? 'a malformed query parameter (code invalid_query)' : undefined,
  ].filter((reason): reason is string => reason !== undefined);
  if (badRequest.length > 0) add(400, `Malformed request: ${badRequest.join('; ')}; or a business rule refused it`);
  if (route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH') add(413, 'The request body is larger than 1 MB (code payload_too_large)');
  if (route.auth !== 'none') add(401, 'Missing, invalid, expired or revoked credentials');
  if (route.idempotency !== 'none') add(409, 'A request with this Idempotency-Key is still being processed (code idempotency_in_progress)');
  if (takesInput) {
    if (route.browser) add(422, 'Invalid fields: a page listing them');
    else if (route.idempotency !== 'none')
      add(422, 'Invalid fields (a map of field → messages), or an Idempotency-Key reused with another body (code idempotency_key_reused)', {
        oneOf: [schemas.convert(validationErrorSchema, 'output'), general],
      });
    else add(422, 'Invalid fields: a map of field → messages', schemas.convert(validationErrorSchema, 'output'));
  }
  // Every counter the route spends (per account, per IP, failed tokens per IP): shared/route-policy.ts.
  if (mayBeRateLimited(route)) add(429, 'Rate limit exceeded (code rate_limited)', general, RETRY_AFTER);
  add(
    500,
    route.browser ? 'Unexpected failure: a page asking to try again' : 'Unexpected failure; safe to retry with the same Idempotency-Key',
    schemas.convert(internalErrorSchema, 'output'),
  );
  if (route.access !== 'none') {
    add(
      503,
      'A transient conflict or a busy table stopped the request; nothing was written (code temporary_conflict). Retry after Retry-After',
      general,
      RETRY_AFTER,
    );
  }
  return out;
}

/** A body the implementation reads raw (e.g. to check a signature over its bytes): documented only. */
export type RawRequest = { mediaType: string; schema: ZodType; description: string; security: SecuritySchemeName };

export type SecuritySchemeName = 'basicAuth' | 'bearerAuth' | 'simulatedSignature';

const SECURITY_SCHEMES: Record<SecuritySchemeName, Json> = {
  basicAuth: { type: 'http', scheme: 'basic', description: 'public_key:secret_key, only on POST /api/auth' },
  bearerAuth: { type: 'http', scheme: 'bearer', description: 'The token from POST /api/auth' },
  simulatedSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'Simulated-Signature',
    description:
      'The simulated provider\'s notification signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the provider\'s notification credential (Secrets Manager); at most 300 s old.',
  },
};

/** A JSON body, a form a browser posts (its fields as the schema's properties, all strings), or a raw body. */
function requestBody(route: AnyRoute, schemas: SchemaCollector, raw: RawRequest | undefined): Json {
  const content: Json = {};
  if (route.request.body) content['application/json'] = { schema: schemas.convert(route.request.body, 'input') };
  if (route.request.form) content[FORM_TYPE] = { schema: schemas.convert(route.request.form, 'input') };
  if (raw) content[raw.mediaType] = { schema: schemas.convert(raw.schema, 'input') };
  if (Object.keys(content).length === 0) return {};
  return { requestBody: { required: true, ...(raw ? { description: raw.description } : {}), content } };
}

function securityOf(route: AnyRoute, raw: RawRequest | undefined): Json[] {
  if (raw) return [{ [raw.security]: [] }];
  return route.auth === 'basic' ? [{ basicAuth: [] }] : route.auth === 'bearer' ? [{ bearerAuth: [] }] : [];
}

export type DocumentOptions = {
  /** The deployment's public base URL (PUBLIC_BASE_URL); without it, a server variable to fill in. */
  serverUrl?: string;
  /** Bodies read raw by their implementation, by route id. */
  rawRequests?: Readonly<Record<string, RawRequest>>;
};

function servers(serverUrl: string | undefined): Json[] {
  if (serverUrl)
    return [{ url: serverUrl.replace(/\/+$/, ''), description: 'This deployment (PUBLIC_BASE_URL): production, staging or local', 'x-internal': false }];
  return [
    {
      url: '{baseUrl}',
      description: "The deployment's PUBLIC_BASE_URL: production, staging, or the local stack (http://127.0.0.1:3000)",
      'x-internal': false,
      variables: { baseUrl: { default: 'https://api.example.com', description: 'The API Gateway URL or custom domain of the deployment' } },
    },
  ];
}

/** The OpenAPI 3.1 document, generated from the route table and the zod schemas that validate requests. */
export function buildOpenApiDocument(routes: readonly AnyRoute[], options: DocumentOptions = {}): Json {
  const schemas = new SchemaCollector();
  const paths: Record<string, Json> = {};
  const raws = options.rawRequests ?? RAW_REQUESTS;
  for (const route of routes) {
    const raw = raws[route.id];
    const operation: Json = {
      operationId: route.id,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      security: securityOf(route, raw),
      parameters: parameters(route, schemas),
      ...requestBody(route, schemas, raw),
      responses: responses(route, schemas),
    };
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method.toLowerCase()]: operation };
  }
  const used = new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => ((op as Json).security as Json[]).flatMap(Object.keys))));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment Gateway API',
      version: API_VERSION,
      description: `Pix, boleto and card charges, Pix withdrawals, customers and signed webhooks for Brazilian merchants. Amounts are decimal strings in BRL. Responses are ${JSON_TYPE}${
        routes.some((route) => route.browser) ? `, except the hosted checkout's pages and form targets, which answer ${HTML_TYPE} (errors included)` : ''
      }.`,
    },
    servers: servers(options.serverUrl),
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: schemas.components,
      securitySchemes: Object.fromEntries(Object.entries(SECURITY_SCHEMES).filter(([name]) => name === 'basicAuth' || name === 'bearerAuth' || used.has(name))),
    },
  };
}

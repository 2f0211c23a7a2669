import { toJSONSchema, type ZodObject, type ZodType } from 'zod';
import { API_VERSION, generalErrorSchema, internalErrorSchema, validationErrorSchema } from '../domain/schemas/common';
import { HTML_TYPE, JSON_TYPE } from './answer';
import type { AnyRoute, ResponseDef } from './route';
import { pathParameterNames } from './route';
import { RAW_REQUESTS } from './routes';
import type { RawRequest, SecuritySchemeName } from './route';
import { countsEveryCall, failedCredentialsClass, ipLimitClassOf, mayBeRateLimited, type IpLimitClass } from '../domain/route-policy';
import { configSchema } from '../platform/config';
import { OPERATION_EXAMPLES, type OperationExample } from './openapi-examples';
import { WEBHOOK_EVENTS, WEBHOOK_HEADERS } from './webhook-events';
import { RATE_LIMIT_HEADERS } from './rate-limit-headers';
import { RAIL_LIMIT_CENTS, RAIL_LIMIT_REASONS, type RailMethod } from '../domain/rail-limits';
import { formatCents } from '../domain/money';

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
    // An integer documented over a string field (a path parameter): the string's own limits do not apply to it.
    if (!types.includes('string')) {
      delete out.pattern;
      delete out.maxLength;
    }
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

  /**
   * A schema as JSON Schema. What the service writes (`output`: answers, webhook bodies) is open to added
   * fields: zod closes its objects (`additionalProperties: false`), but the spec asks clients to tolerate
   * new fields, and a client validating with the document must not break when one is added.
   */
  convert(schema: ZodType, io: 'input' | 'output'): Json {
    const converted = toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
    const { $schema: _dialect, $defs, ...rest } = converted;
    const open = io === 'output';
    for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
      this.components[name] ??= this.relink(def, open);
    }
    return this.relink(rest, open) as Json;
  }

  private relink(value: unknown, open: boolean): unknown {
    if (Array.isArray(value)) return value.map((v) => this.relink(v, open));
    if (value && typeof value === 'object') {
      return withStatedLimits(
        Object.fromEntries(
          Object.entries(value as Json)
            .filter(([k, v]) => !(open && k === 'additionalProperties' && v === false))
            .map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : this.relink(v, open)]),
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
              '8 to 100 characters from A-Za-z0-9_.:-. Same key and body: the first answer is replayed with `Idempotent-Replayed: true`; the same key with another body: 422 idempotency_key_reused; while the first call runs: 409 idempotency_in_progress. Records expire after 24 hours.',
            schema: { type: 'string', minLength: 8, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]{8,100}$' },
            example: 'order-1001-pix',
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

function jsonResponse(description: string, schema: Json, headers?: Json, examples?: Json): Json {
  return { description, content: { 'application/json': { schema, ...(examples ? { examples } : {}) } }, ...(headers ? { headers } : {}) };
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
  // A declared JSON error in the general shape: its example is its description, with the code it names.
  const code = /\(code ([a-z_]+)/.exec(def.description)?.[1];
  const example = !def.schema && contentType === 'application/json' && status >= 400 ? { example: { error: def.description, ...(code ? { code } : {}) } } : {};
  return { description: def.description, content: { [contentType]: { schema, ...example } }, ...headers };
}

/** The Retry-After header of a 429 (always sent) or a 503 (sent with temporary_conflict): whole seconds, at least 1. */
const retryAfter = (required: boolean): Json => ({
  'Retry-After': {
    description: 'Whole seconds until a request would pass (a rate window is 60 s; a conflict asks for a few)',
    required,
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 3600 },
  },
});

/** The header of a replayed answer (spec 4.1), on the success of every route that takes an Idempotency-Key. */
const IDEMPOTENT_REPLAYED: Json = {
  'Idempotent-Replayed': {
    description: 'true when this is the stored answer of an earlier call with the same Idempotency-Key and body (nothing was done again)',
    required: false,
    schema: { type: 'string', enum: ['true'] },
  },
};

/**
 * The RateLimit-* headers (shared/http/rate-limit-headers.ts) of a route whose calls are counted (per
 * account or per IP): on every answer once the call was counted (not on a 401 or 413 that came first),
 * so optional, and required on a 429.
 */
function rateLimitHeaders(required: boolean): Json {
  const header = (description: string, minimum: number) => ({ description, required, schema: { type: 'integer', format: 'int32', minimum, maximum: 100_000 } });
  return {
    [RATE_LIMIT_HEADERS.limit]: header('The most calls of this counter in any 60 s window', 1),
    [RATE_LIMIT_HEADERS.remaining]: header('Calls left in the current 60 s window', 0),
    [RATE_LIMIT_HEADERS.reset]: header('Whole seconds until one more call frees up (0: none in the window)', 0),
  };
}

/** Adds the RateLimit-* headers to every answer of a counted route (required on its 429). */
function withRateLimitHeaders(operation: Json, route: AnyRoute): Json {
  const responses = operation.responses as Record<string, Json>;
  return {
    ...operation,
    responses: Object.fromEntries(
      Object.entries(responses).map(([status, response]) => {
        const counted = countsEveryCall(route) || status === '429';
        if (!counted) return [status, response];
        return [status, { ...response, headers: { ...(response.headers as Json | undefined), ...rateLimitHeaders(status === '429') } }];
      }),
    ),
  };
}

/** The counters (spec 8, shared/domain/route-policy.ts) with their settings; defaults read from the configuration schema. */
const LIMIT_SETTINGS: Record<IpLimitClass | 'account', { setting: keyof typeof configSchema.shape; scope: string }> = {
  account: { setting: 'RATE_LIMIT_ACCOUNT_PER_MINUTE', scope: 'per account' },
  auth: { setting: 'RATE_LIMIT_AUTH_PER_MINUTE', scope: 'per client IP' },
  cep: { setting: 'RATE_LIMIT_CEP_PER_MINUTE', scope: 'per client IP' },
  checkout: { setting: 'RATE_LIMIT_CHECKOUT_PER_MINUTE', scope: 'per client IP, the hosted checkout routes together' },
  public: { setting: 'RATE_LIMIT_PUBLIC_PER_MINUTE', scope: 'per client IP, the public routes together' },
  unauthenticated: { setting: 'RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE', scope: 'per client IP, calls with a missing, invalid, expired or revoked token' },
};

/** The rate limits a route spends (`x-rate-limits`): each counter, its scope, its default per 60 s window and its setting. */
export function rateLimitsOf(route: AnyRoute): { counter: string; scope: string; per_minute: number; setting: string }[] {
  const counters: (IpLimitClass | 'account')[] = [];
  if (route.rateLimit === 'account') counters.push('account');
  const ip = ipLimitClassOf(route);
  if (ip) counters.push(ip);
  const failed = failedCredentialsClass(route);
  if (failed && !counters.includes(failed)) counters.push(failed);
  return counters.map((counter) => {
    const { setting, scope } = LIMIT_SETTINGS[counter];
    return { counter, scope, per_minute: Number(configSchema.shape[setting].parse(undefined)), setting };
  });
}

/** Error bodies as the pipeline writes them (shared/http/errors.ts), one per status, for the document's examples. */
const ERROR_EXAMPLES: Record<number, Json> = {
  400: { bad_request: { value: { error: 'Request body must be a JSON object', code: 'bad_request' } } },
  401: { unauthorized: { value: { error: 'Missing Authorization header (expected: Bearer <token>)', code: 'unauthorized' } } },
  403: { account_disabled: { value: { error: 'This account is disabled: contact support', code: 'account_disabled' } } },
  404: { not_found: { value: { error: 'Not found', code: 'not_found' } } },
  409: { idempotency_in_progress: { value: { error: 'A request with this Idempotency-Key is still being processed', code: 'idempotency_in_progress' } } },
  413: { payload_too_large: { value: { error: 'The request body is larger than 1048576 bytes (1 MB)', code: 'payload_too_large' } } },
  422: { validation: { value: { error: { amount: ['Must be greater than 0'] } } } },
  429: { rate_limited: { value: { error: 'Rate limit exceeded', code: 'rate_limited' } } },
  500: { internal_error: { value: { error: 'Internal error. Details are in the server log.', code: 'internal_error' } } },
  503: { temporary_conflict: { value: { error: 'A concurrent update stopped the request; nothing was written. Retry.', code: 'temporary_conflict' } } },
};
const REUSED_KEY_EXAMPLE: Json = {
  idempotency_key_reused: { value: { error: 'This Idempotency-Key was used with another request', code: 'idempotency_key_reused' } },
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
  const add = (status: number, description: string, schema: Json = general, headers?: Json, examples: Json | undefined = ERROR_EXAMPLES[status]) => {
    out[String(status)] ??= route.browser ? htmlResponse(description, headers) : jsonResponse(description, schema, headers, examples);
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
  // Any method: the pipeline measures the body before anything else reads it, a GET's included.
  add(413, 'The request body is larger than 1 MB (code payload_too_large)');
  if (route.auth !== 'none') add(401, 'Missing, invalid, expired or revoked credentials');
  if (route.auth === 'bearer') add(403, 'The account is disabled by the operator (code account_disabled)');
  if (route.idempotency !== 'none') add(409, 'A request with this Idempotency-Key is still being processed (code idempotency_in_progress)');
  if (takesInput) {
    if (route.browser) add(422, 'Invalid fields: a page listing them');
    else if (route.idempotency !== 'none')
      add(
        422,
        'Invalid fields (a map of field → messages), or an Idempotency-Key reused with another body (code idempotency_key_reused)',
        // anyOf: both are open to added fields, so a validation error's body matches the general shape too.
        { anyOf: [schemas.convert(validationErrorSchema, 'output'), general] },
        undefined,
        { ...ERROR_EXAMPLES[422], ...REUSED_KEY_EXAMPLE },
      );
    else add(422, 'Invalid fields: a map of field → messages', schemas.convert(validationErrorSchema, 'output'));
  }
  // Every counter the route spends (per account, per IP, failed tokens per IP): shared/domain/route-policy.ts.
  if (mayBeRateLimited(route)) {
    const limits = rateLimitsOf(route)
      .map((limit) => `${limit.per_minute} a minute ${limit.scope} (${limit.setting})`)
      .join('; ');
    add(
      429,
      `Rate limit exceeded (code rate_limited). Limits (any 60 s window): ${limits}. Retry-After and RateLimit-Reset say when a slot frees.`,
      general,
      retryAfter(true),
    );
  }
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
      retryAfter(false),
    );
  }
  return out;
}

/** A body the implementation reads raw (e.g. to check a signature over its bytes): documented only. */

export type { RawRequest, SecuritySchemeName };

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
  if (raw?.security) return [{ [raw.security]: [] }];
  return route.auth === 'basic' ? [{ basicAuth: [] }] : route.auth === 'bearer' ? [{ bearerAuth: [] }] : [];
}

export type DocumentOptions = {
  /** The deployment's public base URL (PUBLIC_BASE_URL); without it, a server variable to fill in. */
  serverUrl?: string;
  /** Bodies read raw by their implementation, by route id. */
  rawRequests?: Readonly<Record<string, RawRequest>>;
  /** Each operation's example (request and success answer), by route id. */
  examples?: Readonly<Record<string, OperationExample>>;
};

/** The status of a route's success: its first declared 2xx, else its first 3xx. */
export function successStatus(route: AnyRoute): number | undefined {
  const statuses = Object.keys(route.responses).map(Number);
  return statuses.find((status) => status >= 200 && status < 300) ?? statuses.find((status) => status >= 300 && status < 400);
}

/**
 * Puts the example on the operation: each path and query parameter it names, the request body (every
 * media type), and the success answer; the success of an idempotent route declares Idempotent-Replayed.
 */
function withExample(operation: Json, route: AnyRoute, example: OperationExample | undefined): Json {
  const parameters = (operation.parameters as Json[]).map((parameter) => {
    const given =
      parameter.in === 'path' ? example?.params?.[String(parameter.name)] : parameter.in === 'query' ? example?.query?.[String(parameter.name)] : undefined;
    return given === undefined ? parameter : { ...parameter, example: given };
  });
  const out: Json = { ...operation, parameters };
  const body = operation.requestBody as { content: Record<string, Json> } | undefined;
  if (body && example?.body !== undefined) {
    out.requestBody = {
      ...body,
      content: Object.fromEntries(Object.entries(body.content).map(([type, media]) => [type, { ...media, example: example.body }])),
    };
  }
  const status = successStatus(route);
  const responses = operation.responses as Record<string, Json>;
  const success = status === undefined ? undefined : responses[String(status)];
  if (status !== undefined && success) {
    const content = success.content as Record<string, Json> | undefined;
    const headers = route.idempotency === 'none' ? success.headers : { ...(success.headers as Json | undefined), ...IDEMPOTENT_REPLAYED };
    out.responses = {
      ...responses,
      [String(status)]: {
        ...success,
        ...(headers ? { headers } : {}),
        ...(content && example
          ? { content: Object.fromEntries(Object.entries(content).map(([type, media]) => [type, { ...media, example: example.response }])) }
          : {}),
      },
    };
  }
  return out;
}

/**
 * The webhooks the service sends (OpenAPI 3.1 `webhooks`): one POST per event type to the merchant's
 * URL, with the signed headers, and the answer the service expects (2xx within 10 s; anything else is retried).
 */
function webhooks(schemas: SchemaCollector): Json {
  const parameters = WEBHOOK_HEADERS.map((header) => ({
    name: header.name,
    in: 'header',
    required: true,
    description: header.description,
    schema: { type: 'string', pattern: header.pattern, maxLength: header.maxLength },
  }));
  return Object.fromEntries(
    Object.entries(WEBHOOK_EVENTS).map(([type, event]) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace('.', '_')}`,
          summary: event.summary,
          description:
            'POSTed to the URL set with PUT /api/webhook. Verify Service-Signature over the raw body, deduplicate on Service-Event-Id (delivery is at least once, in no guaranteed order). Answer 2xx within 10 s; anything else is retried after 1, 5, 15, 60, 180, 360 and 720 minutes (8 attempts).',
          tags: ['Webhooks'],
          security: [],
          parameters,
          requestBody: { required: true, content: { 'application/json': { schema: schemas.convert(event.schema, 'output'), example: event.example } } },
          responses: {
            '2XX': { description: 'Received: no further attempt' },
            default: { description: 'Not received (any other status, a timeout or a redirect): retried on the schedule above' },
          },
        },
      },
    ]),
  );
}

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

/**
 * A charge operation's ceiling on the invoice total, machine-readable (`x-total-ceiling`): the largest
 * total as a money string, its currency, the rail and why; above it the answer is 422 on amount.
 */
export function totalCeilingOf(method: RailMethod): Json {
  return { max_total: formatCents(RAIL_LIMIT_CENTS[method]), currency: 'BRL', rail: method, reason: RAIL_LIMIT_REASONS[method] };
}

/** The OpenAPI 3.1 document, generated from the route table and the zod schemas that validate requests. */
export function buildOpenApiDocument(routes: readonly AnyRoute[], options: DocumentOptions = {}): Json {
  const schemas = new SchemaCollector();
  const paths: Record<string, Json> = {};
  const raws = options.rawRequests ?? RAW_REQUESTS;
  const examples = options.examples ?? OPERATION_EXAMPLES;
  for (const route of routes) {
    const raw = raws[route.id];
    const limits = rateLimitsOf(route);
    const operation: Json = {
      operationId: route.id,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      security: securityOf(route, raw),
      parameters: parameters(route, schemas),
      ...requestBody(route, schemas, raw),
      responses: responses(route, schemas),
      ...(limits.length > 0 ? { 'x-rate-limits': limits } : {}),
      ...(route.totalCeiling ? { 'x-total-ceiling': totalCeilingOf(route.totalCeiling) } : {}),
    };
    paths[route.path] = {
      ...(paths[route.path] ?? {}),
      [route.method.toLowerCase()]: withRateLimitHeaders(withExample(operation, route, examples[route.id]), route),
    };
  }
  const hooks = webhooks(schemas);
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
    tags: [...new Set([...routes.map((route) => route.tag), 'Webhooks'])].map((name) => ({ name })),
    paths,
    webhooks: hooks,
    components: {
      schemas: schemas.components,
      securitySchemes: Object.fromEntries(Object.entries(SECURITY_SCHEMES).filter(([name]) => name === 'basicAuth' || name === 'bearerAuth' || used.has(name))),
    },
  };
}

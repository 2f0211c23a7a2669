import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { compilePath, type AnyRoute } from '../../shared/http/route';

/**
 * The OpenAPI contract as a pure checker: given the served document (OpenAPI 3.1, its schemas JSON
 * Schema 2020-12) and one observed answer, the list of ways the answer disagrees with it: a route
 * missing from the document, a status the operation does not declare, another content type, a body
 * or a declared header that does not match its schema. test/support/openapi-check.ts feeds it every
 * answer the integration tests receive.
 */

type Json = Record<string, unknown>;

/** One answer as a test saw it: the request's method and URL (path and query) and the response. */
export type ObservedAnswer = {
  method: string;
  url: string;
  status: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: string;
};

type MediaType = { schema?: Json };
type HeaderObject = { required?: boolean; schema?: Json };
type ResponseObject = { content?: Record<string, MediaType>; headers?: Record<string, HeaderObject> };
type Operation = { operationId?: string; responses?: Record<string, ResponseObject> };
type Document = { openapi?: string; paths?: Record<string, Record<string, Operation>>; components?: Json };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const DOCUMENT_ID = 'https://contract.local/openapi.json';

/** The media type without its parameters, lower case (`application/json; charset=utf-8` → `application/json`). */
export function essence(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

function headerValue(headers: ObservedAnswer['headers'], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return Array.isArray(value) ? value.join(', ') : value;
  }
  return undefined;
}

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema (3.1 documents carry `type: [..., 'null']` already), and
 * every `#/components/...` reference pointed at the document registered in ajv.
 */
function toJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonSchema);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value as Json)) {
    if (key === '$ref' && typeof child === 'string' && child.startsWith('#/')) out[key] = `${DOCUMENT_ID}${child}`;
    else if (key !== 'nullable') out[key] = toJsonSchema(child);
  }
  const source = value as Json;
  // The document leaves objects open to added fields (clients must tolerate them); the tests hold the
  // service's own answers to exactly the fields documented, so an undocumented field still fails them.
  if (source.properties !== undefined && source.additionalProperties === undefined) out.additionalProperties = false;
  if (source.nullable === true) {
    if (typeof source.type === 'string') out.type = [source.type, 'null'];
    else if (source.type === undefined) return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 8)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.params && Object.keys(e.params).length > 0 ? ` ${JSON.stringify(e.params)}` : ''}`)
    .join('; ');
}

type Template = { path: string; match: (actual: string) => Record<string, string> | null; literals: number };

export type Contract = {
  /** Every disagreement of the answer with the document (empty when it conforms). */
  violations: (answer: ObservedAnswer) => string[];
  /** Validates a value against a schema of the document (e.g. an example), returning the ajv errors as text, or undefined. */
  validate: (schema: Json, value: unknown) => string | undefined;
};

/**
 * Compiles a contract from the document. `implemented` is the route table the service really serves:
 * an answer on a path the document lacks passes only as the $default route's 404 (405 for another
 * method of a documented path) on a path no route of the table serves; otherwise it is a route
 * missing from the document.
 */
export function compileContract(document: Json, implemented: readonly AnyRoute[]): Contract {
  const doc = document as Document;
  if (!/^3\.[01]\./.test(String(doc.openapi))) throw new Error(`openapi-check: unsupported OpenAPI version ${String(doc.openapi)}`);
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOCUMENT_ID, components: toJsonSchema(doc.components ?? {}) });
  const compiled = new Map<Json, ValidateFunction>();
  const validator = (schema: Json): ValidateFunction => {
    let fn = compiled.get(schema);
    if (!fn) {
      fn = ajv.compile(toJsonSchema(schema) as Json);
      compiled.set(schema, fn);
    }
    return fn;
  };
  const validate = (schema: Json, value: unknown) => {
    const fn = validator(schema);
    return fn(value) ? undefined : describeErrors(fn.errors);
  };

  const templates: Template[] = Object.keys(doc.paths ?? {})
    .map((path) => ({ path, match: compilePath(path), literals: path.replace(/\{[^}]+\}/g, '').length }))
    // A literal segment beats a parameter: /api/invoice/ref/{ref_id} before /api/invoice/{invoice_id}.
    .sort((a, b) => b.literals - a.literals);
  const served = implemented.map((route) => ({ route, match: compilePath(route.path) }));
  const servedRoute = (method: string, path: string) => served.find((s) => s.route.method === method && s.match(path) !== null)?.route;
  const servedPath = (path: string) => served.some((s) => s.match(path) !== null);

  const errorSchema = (doc.components?.schemas as Record<string, Json> | undefined)?.Error ?? { type: 'object', required: ['error'] };

  /** The $default route's answers (functions/meta/not-found.ts): JSON, the general error shape with its code. */
  const fallbackViolations = (answer: ObservedAnswer, status: number, code: string): string[] => {
    const where = `${answer.method} ${answer.url} → ${answer.status}`;
    if (answer.status !== status) return [`${where}: the path is not in the document for this method, and the answer is not the $default route's ${status}`];
    const problems: string[] = [];
    if (essence(headerValue(answer.headers, 'content-type') ?? '') !== 'application/json') problems.push(`${where}: the $default route answers JSON`);
    const parsed = parseJson(answer.body);
    const invalid = parsed.ok ? validate(errorSchema, parsed.value) : 'not JSON';
    if (invalid || !parsed.ok) problems.push(`${where}: body is not the Error schema: ${invalid ?? 'not JSON'}`);
    else if ((parsed.value as { code?: unknown }).code !== code) problems.push(`${where}: the $default route's code is ${code}`);
    if (status === 405 && !headerValue(answer.headers, 'allow')) problems.push(`${where}: a 405 names the allowed methods (Allow)`);
    return problems;
  };

  const violations = (answer: ObservedAnswer): string[] => {
    const method = answer.method.toUpperCase();
    const url = new URL(answer.url, 'http://contract.local');
    const template = templates.find((t) => t.match(url.pathname) !== null);
    const operation = template ? doc.paths?.[template.path]?.[method.toLowerCase()] : undefined;
    if (!template || !operation) {
      const route = servedRoute(method, url.pathname);
      if (route) return [`${method} ${route.path} (${route.id}) answers ${answer.status} but is missing from the OpenAPI document`];
      if (template) return fallbackViolations(answer, 405, 'method_not_allowed');
      return servedPath(url.pathname)
        ? [`${method} ${url.pathname}: a path the service routes is missing from the OpenAPI document`]
        : fallbackViolations(answer, 404, 'not_found');
    }
    const where = `${operation.operationId ?? ''} (${method} ${template.path}) → ${answer.status}`;
    const responses = operation.responses ?? {};
    const status = String(answer.status);
    const declared = responses[status] ?? responses[`${status[0] ?? ''}XX`] ?? responses.default;
    if (!declared) return [`${where}: status not declared (declared: ${Object.keys(responses).join(', ')}); body ${answer.body.slice(0, 300)}`];
    const problems: string[] = [];
    for (const [name, header] of Object.entries(declared.headers ?? {})) {
      const value = headerValue(answer.headers, name);
      if (value === undefined) {
        if (header.required) problems.push(`${where}: required header ${name} missing`);
        continue;
      }
      if (!header.schema) continue;
      const type = header.schema.type;
      const typed = type === 'integer' || type === 'number' ? (/^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value) : value;
      const invalid = validate(header.schema, typed);
      if (invalid) problems.push(`${where}: header ${name}: ${value}: ${invalid}`);
    }
    const content = declared.content ?? {};
    const mediaTypes = Object.keys(content);
    const contentType = headerValue(answer.headers, 'content-type');
    if (mediaTypes.length === 0) {
      if (answer.body !== '') problems.push(`${where}: the document declares no content, the answer has a body (${contentType ?? 'no content type'})`);
      return problems;
    }
    const media = mediaTypes.find(
      (m) => essence(m) === essence(contentType ?? '') && (!m.includes(';') || m.replace(/\s/g, '') === (contentType ?? '').replace(/\s/g, '')),
    );
    if (!media) return [...problems, `${where}: content type ${contentType ?? '(none)'} not declared (declared: ${mediaTypes.join(', ')})`];
    const schema = content[media]?.schema;
    if (!schema) return problems;
    const isJson = essence(media) === 'application/json' || essence(media).endsWith('+json');
    const parsed = isJson ? parseJson(answer.body) : { ok: true as const, value: answer.body };
    if (!parsed.ok) return [...problems, `${where}: declared ${media} but the body is not JSON: ${answer.body.slice(0, 200)}`];
    const invalid = validate(schema, parsed.value);
    if (invalid) problems.push(`${where}: body does not match the ${media} schema: ${invalid}; body ${answer.body.slice(0, 500)}`);
    return problems;
  };
  return { violations, validate };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Every operation of a document as [method, path, operation]. */
export function operationsOf(document: Json): [string, string, Json][] {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]): [string, string, Json] => [method, path, operation]),
  );
}

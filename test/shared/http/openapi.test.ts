import { Validator } from '@seriousme/openapi-schema-validator';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineRoute, pathParameterNames, type AnyRoute } from '../../../shared/http/route';
import { buildOpenApiDocument, FORM_TYPE, patternMaxLength } from '../../../shared/http/openapi';
import { RAW_REQUESTS, routeList, routes, simulatedNotificationSchema } from '../../../shared/http/routes';
import { simulatedProvider, type SimulatedNotification } from '../../../shared/adapters/providers/simulated';
import { signatureHeader } from '../../../shared/domain/hmac-header';
import { mayBeRateLimited } from '../../../shared/domain/route-policy';

type Json = Record<string, unknown>;
type Operation = {
  operationId: string;
  security: Json[];
  parameters: { name: string; in: string; required: boolean; schema: Json }[];
  requestBody?: { required: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, { description: string; headers?: Record<string, { schema: Json }>; content?: Json }>;
};

/** A route with every kind of input, so the generator's body, query, path and header parameters are all exercised. */
const createThing = defineRoute({
  id: 'CreateThing',
  method: 'POST',
  path: '/api/thing/{thing_id}/part',
  handler: 'functions/test/create-thing.ts',
  auth: 'bearer',
  rateLimit: 'account',
  access: 'write',
  idempotency: 'required',
  tag: 'Test',
  summary: 'Creates a part of a thing',
  request: {
    body: z.object({ name: z.string().min(1).max(50), amount: z.string().regex(/^\d+\.\d{2}$/), tags: z.array(z.string()).optional() }),
    query: z.object({ dry_run: z.enum(['true', 'false']).optional(), page: z.coerce.number().int().min(1) }),
    params: z.object({ thing_id: z.string().min(3) }),
  },
  responses: { 200: { description: 'Created', schema: z.object({ id: z.string() }).meta({ id: 'ThingPart' }) } },
});

async function validate(document: Json) {
  const validator = new Validator();
  return validator.validate(document);
}

function operationOf(document: Json, route: AnyRoute): Operation {
  const paths = document.paths as Record<string, Record<string, Operation>>;
  const operation = paths[route.path]?.[route.method.toLowerCase()];
  if (!operation) throw new Error(`no ${route.method} ${route.path} in the document`);
  return operation;
}

describe('buildOpenApiDocument(routeList)', () => {
  const document = buildOpenApiDocument(routeList);

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it('marks the legacy fields of Withdraw deprecated (spec 9), with their replacements in the description', () => {
    const withdraw = ((document.components as Json).schemas as Record<string, Json>).Withdraw as { properties: Record<string, Json> };
    expect(withdraw.properties.loquidAmount).toMatchObject({ deprecated: true, description: expect.stringContaining('netAmount') });
    expect(withdraw.properties.entoend).toMatchObject({ deprecated: true, description: expect.stringContaining('endToEndId') });
    const current = Object.entries(withdraw.properties).filter(([name]) => name !== 'loquidAmount' && name !== 'entoend');
    for (const [name, property] of current) expect(property.deprecated, name).toBeUndefined();
  });

  it('gives each charge creation its ceiling on the total, machine-readable (x-total-ceiling): card as Pix, 12 digits; boleto 10', () => {
    const ceilingOf = (route: AnyRoute) => (operationOf(document, route) as Record<string, unknown>)['x-total-ceiling'];
    expect(ceilingOf(routes.createPix)).toMatchObject({ max_total: '9999999999.99', currency: 'BRL', rail: 'pix' });
    expect(ceilingOf(routes.createCard)).toMatchObject({
      max_total: '9999999999.99',
      currency: 'BRL',
      rail: 'creditcard',
      reason: expect.stringContaining('ISO 8583'),
    });
    expect(ceilingOf(routes.createBoleto)).toMatchObject({ max_total: '99999999.99', currency: 'BRL', rail: 'boleto' });
    const withCeiling = routeList.filter((route) => ceilingOf(route) !== undefined).map((route) => route.id);
    expect(withCeiling.sort()).toEqual(
      routeList
        .filter((route) => route.totalCeiling !== undefined)
        .map((route) => route.id)
        .sort(),
    );
    expect(withCeiling).toEqual(expect.arrayContaining([routes.createBoleto.id, routes.createCard.id, routes.createPix.id]));
  });

  it('carries the API version of the spec', () => {
    expect((document.info as Json).version).toBe('2026-10-14');
  });

  it('has every route of the table with its method and operationId', () => {
    expect(routeList.length).toBeGreaterThan(0);
    for (const route of routeList) {
      expect(operationOf(document, route).operationId).toBe(route.id);
    }
    const operationCount = Object.values(document.paths as Record<string, Json>).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(operationCount).toBe(routeList.length);
  });

  it('gives operationIds that are unique', () => {
    const ids = routeList.map((route) => operationOf(document, route).operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('secures each route with its scheme', () => {
    for (const route of routeList) {
      const security = operationOf(document, route).security;
      const raw = RAW_REQUESTS[route.id];
      if (raw?.security) expect(security, route.id).toEqual([{ [raw.security]: [] }]);
      else if (route.auth === 'bearer') expect(security).toEqual([{ bearerAuth: [] }]);
      else if (route.auth === 'basic') expect(security).toEqual([{ basicAuth: [] }]);
      else expect(security).toEqual([]);
    }
  });

  it('lists 401 and a 429 with an integer Retry-After header on every bearer route', () => {
    const bearerRoutes = routeList.filter((route) => route.auth === 'bearer');
    expect(bearerRoutes.length).toBeGreaterThan(0);
    for (const route of bearerRoutes) {
      const { responses } = operationOf(document, route);
      expect(responses['401'], route.id).toBeDefined();
      expect(responses['429']?.headers?.['Retry-After']?.schema, route.id).toMatchObject({ type: 'integer', minimum: 1 });
    }
  });

  it('lists 400, 401 and 429 on the Basic key exchange', () => {
    for (const route of routeList.filter((r) => r.auth === 'basic')) {
      const { responses } = operationOf(document, route);
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '400', '401', '429', '500']));
      expect(responses['429']?.headers?.['Retry-After']).toBeDefined();
    }
  });

  it('lists a 500 on every route, and no 401 (unless the route declares one, e.g. a bad provider signature) or 429 on public unlimited routes', () => {
    for (const route of routeList) {
      const { responses } = operationOf(document, route);
      expect(responses['500'], route.id).toBeDefined();
      if (route.auth === 'none' && !route.responses[401]) expect(responses['401'], route.id).toBeUndefined();
      if (!mayBeRateLimited(route)) expect(responses['429'], route.id).toBeUndefined();
    }
  });

  it('has a requestBody exactly on the routes that take a body: JSON, or a browser form', () => {
    expect(routeList.filter((route) => route.request.form).length).toBeGreaterThan(0);
    for (const route of routeList) {
      const { requestBody } = operationOf(document, route);
      if (route.request.body) expect(requestBody?.content['application/json']?.schema, route.id).toBeDefined();
      if (route.request.form) expect(requestBody?.content[FORM_TYPE]?.schema, route.id).toBeDefined();
      const raw = RAW_REQUESTS[route.id];
      if (raw) expect(requestBody?.content[raw.mediaType]?.schema, route.id).toBeDefined();
      if (!route.request.body && !route.request.form && !raw) expect(requestBody, route.id).toBeUndefined();
      if (requestBody) expect(Object.keys(requestBody.content).length, route.id).toBe([route.request.body, route.request.form, raw].filter(Boolean).length);
    }
  });

  it('declares the basicAuth and bearerAuth security schemes', () => {
    const schemes = (document.components as { securitySchemes: Record<string, Json> }).securitySchemes;
    expect(schemes.basicAuth).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('resolves every $ref to a component schema', () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(refs.length).toBeGreaterThan(0);
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
    for (const ref of refs) {
      expect(ref.startsWith('#/components/schemas/'), ref).toBe(true);
      expect(schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
  });
});

describe('the document leaves what the service writes open to added fields (the spec asks clients to tolerate them)', () => {
  const document = buildOpenApiDocument(routeList);
  /** Every object schema reachable from `value`, following component references once. */
  const objectsUnder = (value: unknown, seen = new Set<string>()): Json[] => {
    const found: Json[] = [];
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (!node || typeof node !== 'object') return;
      const json = node as Json;
      const ref = json.$ref;
      if (typeof ref === 'string' && ref.startsWith('#/components/schemas/') && !seen.has(ref)) {
        seen.add(ref);
        visit((document.components as { schemas: Record<string, unknown> }).schemas[ref.slice('#/components/schemas/'.length)]);
      }
      if (json.type === 'object' || json.properties !== undefined) found.push(json);
      Object.values(json).forEach(visit);
    };
    visit(value);
    return found;
  };

  it('no answer or webhook body closes an object (additionalProperties: false)', () => {
    const paths = document.paths as Record<string, Record<string, { responses?: unknown }>>;
    const answers = Object.values(paths).flatMap((item) => Object.values(item).map((operation) => operation.responses));
    const written = [...objectsUnder(answers), ...objectsUnder(document.webhooks)];
    expect(written.length).toBeGreaterThan(50);
    expect(written.filter((schema) => schema.additionalProperties === false)).toEqual([]);
    // An invoice, for one: open, with its documented fields.
    const invoice = (document.components as { schemas: Record<string, Json> }).schemas.Invoice;
    expect(invoice?.properties).toHaveProperty('total');
    expect(invoice).not.toHaveProperty('additionalProperties');
  });

  it('the webhook URL is documented as a URI, the invoice id as an integer, request money as two decimals', () => {
    const schemas = (document.components as { schemas: Record<string, { properties: Record<string, Json> }> }).schemas;
    expect(schemas.SetWebhook?.properties.url).toMatchObject({ format: 'uri' });
    expect(schemas.CreatePixCharge?.properties.amount?.description).toMatch(/at most 2 decimals/);
    expect(schemas.CreateWithdraw?.properties.amount?.description).toMatch(/at most 2 decimals/);
  });
});

describe('buildOpenApiDocument with a route that takes every kind of input', () => {
  const document = buildOpenApiDocument([...routeList, createThing]);
  const operation = operationOf(document, createThing);

  it('is still a valid OpenAPI 3.1 document', async () => {
    const result = await validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('has a required JSON requestBody with the body fields', () => {
    expect(operation.requestBody?.required).toBe(true);
    const schema = operation.requestBody?.content['application/json']?.schema as { type: string; properties: Json; required: string[] };
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties).sort()).toEqual(['amount', 'name', 'tags']);
    expect(schema.required.sort()).toEqual(['amount', 'name']);
  });

  it('lists path, query and Idempotency-Key header parameters', () => {
    const byName = Object.fromEntries(operation.parameters.map((p) => [p.name, p]));
    expect(pathParameterNames(createThing.path)).toEqual(['thing_id']);
    expect(byName.thing_id).toMatchObject({ in: 'path', required: true });
    expect(byName.page).toMatchObject({ in: 'query', required: true });
    expect(byName.dry_run).toMatchObject({ in: 'query', required: false });
    expect(byName['Idempotency-Key']).toMatchObject({ in: 'header', required: true });
    const pattern = new RegExp(String(byName['Idempotency-Key']?.schema.pattern));
    expect(pattern.test('a'.repeat(8))).toBe(true);
    expect(pattern.test('a'.repeat(7))).toBe(false);
    expect(pattern.test('a'.repeat(101))).toBe(false);
  });

  it('lists 400, 401, 409, 422 and 429 for an idempotent creation', () => {
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '409', '422', '429', '500']));
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
    expect(schemas.ThingPart).toBeDefined();
  });
});

describe('the rounding rule of charge totals in the document', () => {
  const document = buildOpenApiDocument(routeList);
  const schemas = (
    document.components as { schemas: Record<string, { properties: Record<string, { description?: string; properties?: Record<string, Json> }> }> }
  ).schemas;
  const charges = [routes.createPix, routes.createBoleto, routes.createCard];

  it('is in the description of every charge creation, with the half-cent example', () => {
    for (const route of charges) {
      const description = String((operationOf(document, route) as unknown as { description?: string }).description);
      expect(description, route.id).toContain('rounded once, at the end, to cents, half up');
      expect(description, route.id).toContain('amount 0.05 × quantity 1 with tax 10 gives 0.055, answered "0.06"');
    }
  });

  it('describes the total field of each created charge and of the invoice object with the same rule', () => {
    const totals = [
      schemas.PixCreated?.properties.invoice?.properties?.total,
      schemas.BoletoCreated?.properties.invoice?.properties?.total,
      schemas.CardCreated?.properties.invoice?.properties?.total,
      schemas.Invoice?.properties.total,
    ];
    for (const total of totals) expect(String((total as { description?: string } | undefined)?.description)).toContain('half up (a half cent goes up)');
  });

  it('gives tax and discount their 4 decimals', () => {
    const body = operationOf(document, routes.createPix).requestBody?.content['application/json']?.schema as Json;
    const properties = ((schemas.CreatePixCharge ?? body) as { properties: Record<string, { description?: string }> }).properties;
    expect(properties.tax?.description).toContain('at most 4 decimals');
    expect(properties.discount?.description).toContain('at most 4 decimals');
  });

  it('lists 413 payload_too_large on every route that takes a body', () => {
    for (const route of routeList.filter((r) => r.method === 'POST' || r.method === 'PUT')) {
      expect(operationOf(document, route).responses['413']?.description, route.id).toContain('payload_too_large');
    }
  });
});

const HTML = 'text/html; charset=utf-8';

/** A browser-facing route with a form: a 303 on success, declared errors with and without a content type or schema. */
const postThingForm = defineRoute({
  id: 'PostThingForm',
  method: 'POST',
  path: '/things/{thing_id}/form',
  handler: 'functions/test/post-thing-form.ts',
  auth: 'none',
  rateLimit: 'checkout',
  access: 'write',
  idempotency: 'none',
  browser: true,
  tag: 'Test',
  summary: 'A form a browser posts',
  request: {
    params: z.object({ thing_id: z.string().max(20) }),
    form: z.object({ name: z.string().min(1).max(50), quantity: z.string().regex(/^\d+$/), note: z.string().max(10).optional() }),
  },
  responses: {
    303: { description: 'To the next page', contentType: HTML },
    400: { description: 'Refused' },
    409: { description: 'Taken, as JSON on purpose', schema: z.object({ taken: z.boolean() }) },
    410: { description: 'Gone, as plain text', contentType: 'text/plain' },
  },
});

/** The same form on a JSON route (not `browser`): its errors stay JSON. */
const postThingFormJson = defineRoute({ ...postThingForm, id: 'PostThingFormJson', path: '/things/{thing_id}/json-form', browser: undefined });

/** A browser route that redirects without content. */
const getThingRedirect = defineRoute({
  id: 'GetThingRedirect',
  method: 'GET',
  path: '/things/{thing_id}',
  handler: 'functions/test/get-thing.ts',
  auth: 'none',
  rateLimit: 'checkout',
  access: 'read',
  idempotency: 'none',
  browser: true,
  tag: 'Test',
  summary: 'Sends the browser elsewhere',
  request: { params: z.object({ thing_id: z.string().max(20) }) },
  responses: { 303: { description: 'Elsewhere' }, 200: { description: 'The page', contentType: HTML } },
});

describe('buildOpenApiDocument with browser-facing routes and form bodies', () => {
  const document = buildOpenApiDocument([...routeList, postThingForm, postThingFormJson, getThingRedirect]);
  const form = operationOf(document, postThingForm);
  const mediaTypes = (op: Operation, status: string) => Object.keys((op.responses[status]?.content ?? {}) as Json);
  const schemaOf = (op: Operation, status: string, type: string) => ((op.responses[status]?.content ?? {}) as Record<string, { schema: Json }>)[type]?.schema;

  it('is still a valid OpenAPI 3.1 document', async () => {
    const result = await validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('documents a form as a required application/x-www-form-urlencoded requestBody with the schema of its fields', () => {
    expect(FORM_TYPE).toBe('application/x-www-form-urlencoded');
    expect(form.requestBody?.required).toBe(true);
    expect(Object.keys(form.requestBody?.content ?? {})).toEqual([FORM_TYPE]);
    const schema = form.requestBody?.content[FORM_TYPE]?.schema as { type: string; properties: Record<string, Json>; required: string[] };
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties).sort()).toEqual(['name', 'note', 'quantity']);
    expect(schema.required.sort()).toEqual(['name', 'quantity']);
    expect(schema.properties.quantity).toMatchObject({ type: 'string', pattern: '^\\d+$' });
  });

  it("documents a browser route's default errors (413, 422, 429, 500) as HTML pages with a string schema, Retry-After kept", () => {
    for (const status of ['413', '422', '429', '500']) {
      expect(mediaTypes(form, status), status).toEqual([HTML]);
      expect(schemaOf(form, status, HTML), status).toEqual({ type: 'string' });
    }
    expect(form.responses['429']?.headers?.['Retry-After']?.schema).toMatchObject({ type: 'integer' });
    // A public route: no 401 added.
    expect(form.responses['401']).toBeUndefined();
  });

  it('makes a declared error without a content type or schema an HTML page, and keeps declared content types and schemas', () => {
    expect(mediaTypes(form, '400')).toEqual([HTML]);
    expect(schemaOf(form, '400', HTML)).toEqual({ type: 'string' });
    expect(mediaTypes(form, '409')).toEqual(['application/json']);
    expect(schemaOf(form, '409', 'application/json')).toMatchObject({ type: 'object', properties: { taken: { type: 'boolean' } } });
    expect(mediaTypes(form, '410')).toEqual(['text/plain']);
    expect(mediaTypes(form, '303')).toEqual([HTML]);
  });

  it('gives every 303 a Location header, with or without content', () => {
    const location = { description: expect.any(String), schema: { type: 'string', format: 'uri-reference' } };
    expect(form.responses['303']?.headers?.Location).toEqual(location);
    const redirect = operationOf(document, getThingRedirect);
    expect(redirect.responses['303']?.headers?.Location).toEqual(location);
    expect(redirect.responses['303']?.content).toBeUndefined();
    expect(mediaTypes(redirect, '200')).toEqual([HTML]);
    expect(redirect.responses['200']?.headers?.Location).toBeUndefined();
  });

  it('keeps the errors of a route that is not browser-facing JSON, form or not', () => {
    const json = operationOf(document, postThingFormJson);
    expect(Object.keys(json.requestBody?.content ?? {})).toEqual([FORM_TYPE]);
    for (const status of ['400', '413', '422', '429', '500']) expect(mediaTypes(json, status), status).toEqual(['application/json']);
    expect(JSON.stringify(schemaOf(json, '422', 'application/json'))).toContain('$ref');
  });

  it('documents the hosted checkout: its forms, its HTML errors, its redirects and its JSON routes', () => {
    expect(routes.checkoutEntry.browser).toBe(true);
    expect(routes.checkoutCard.browser).toBe(true);
    const schemas = (document.components as { schemas: Record<string, { properties?: Record<string, unknown> }> }).schemas;
    const formFields = (route: AnyRoute) => {
      const schema = operationOf(document, route).requestBody?.content[FORM_TYPE]?.schema as { $ref?: string; properties?: Record<string, unknown> };
      const resolved = schema.$ref ? schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
      return Object.keys(resolved?.properties ?? {});
    };
    expect(formFields(routes.checkoutEntry)).toEqual(expect.arrayContaining(['public_key', 'tx_ref', 'callback_url', 'amount', 'quantity', 'signature']));
    expect(formFields(routes.checkoutCard)).toEqual(expect.arrayContaining(['creditcard_number', 'creditcard_cvv', 'csrf_token', 'installments']));
    for (const route of routeList.filter((r) => r.browser)) {
      const operation = operationOf(document, route);
      const errors = Object.keys(operation.responses).filter((status) => Number(status) >= 400);
      // Every browser route's limit and failure are pages; a route that takes input (the checkout's all do) also its invalid fields.
      expect(errors, route.id).toEqual(expect.arrayContaining(['429', '500']));
      if (route.request.form || route.request.params || route.tag === 'Hosted checkout') expect(errors, route.id).toContain('422');
      for (const status of errors) expect(mediaTypes(operation, status), `${route.id} ${status}`).toEqual([HTML]);
      if (operation.responses['303']) expect(operation.responses['303'].headers?.Location, route.id).toBeDefined();
    }
    expect(operationOf(document, routes.checkoutEntry).responses['303']?.headers?.Location).toBeDefined();
    expect(operationOf(document, routes.checkoutCard).responses['303']?.headers?.Location).toBeDefined();
    // The page's status poll and the merchant's lookup answer JSON, errors included.
    for (const route of [routes.checkoutStatus, routes.getCheckout]) {
      const operation = operationOf(document, route);
      for (const status of ['200', '404', '429', '500']) expect(mediaTypes(operation, status), `${route.id} ${status}`).toEqual(['application/json']);
    }
  });

  it('says in its description that browser routes answer HTML, only when there are some', () => {
    expect(String((document.info as Json).description)).toContain(`answer ${HTML}`);
    expect(String((buildOpenApiDocument([createThing]).info as Json).description)).not.toContain('text/html');
  });
});

/** Issue 17 item 8: the document declares exactly what each route answers. */
describe('what each route answers, as the document declares it', () => {
  const document = buildOpenApiDocument(routeList);
  const schemas = (document.components as { schemas: Record<string, Json> }).schemas;
  const statuses = (route: AnyRoute) => Object.keys(operationOf(document, route).responses);
  const jsonSchemaOf = (route: AnyRoute, status: string) =>
    ((operationOf(document, route).responses[status]?.content ?? {}) as Record<string, { schema: Json }>)['application/json']?.schema;

  it('declares 422 as a field map OR a general error where an Idempotency-Key can be reused with another body', () => {
    const keyed = routeList.filter((r) => r.idempotency !== 'none' && !r.browser);
    expect(keyed.length).toBeGreaterThan(0);
    for (const route of keyed) {
      expect(jsonSchemaOf(route, '422'), route.id).toEqual({
        anyOf: [{ $ref: '#/components/schemas/ValidationError' }, { $ref: '#/components/schemas/Error' }],
      });
      expect(operationOf(document, route).responses['422']?.description, route.id).toContain('idempotency_key_reused');
    }
    // Without a key, 422 is only the field map.
    expect(jsonSchemaOf(routes.putWebhook, '422')).toEqual({ $ref: '#/components/schemas/ValidationError' });
  });

  it('declares 400 and 404 on GET /api/customer/{id}, 400 on GET /api/pixout/list and GET /api/invoice/{id}', () => {
    expect(statuses(routes.getCustomer)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    expect(statuses(routes.listWithdrawals)).toContain('400');
    expect(operationOf(document, routes.listWithdrawals).responses['400']?.description).toContain('invalid_query');
    expect(statuses(routes.getInvoice)).toEqual(expect.arrayContaining(['400', '404']));
    expect(operationOf(document, routes.getInvoice).responses['400']?.description).toContain('invalid_path_parameter');
    // A route whose malformed query answers 422 does not claim a 400 for it.
    expect(statuses(routes.listInvoices)).not.toContain('400');
  });

  it('declares a 400 for a malformed path parameter on every route with path parameters', () => {
    for (const route of routeList.filter((r) => r.request.params)) expect(statuses(route), route.id).toContain('400');
  });

  it('has a server: a placeholder variable by default, or the PUBLIC_BASE_URL given', () => {
    const [server] = document.servers as Json[];
    expect(server).toMatchObject({ url: '{baseUrl}', 'x-internal': false, variables: { baseUrl: { default: expect.stringMatching(/^https:\/\//) } } });
    const deployed = buildOpenApiDocument(routeList, { serverUrl: 'https://pay.example.com/' });
    expect(deployed.servers).toEqual([expect.objectContaining({ url: 'https://pay.example.com' })]);
  });

  it('declares the provider notification body (the simulated union) and its Simulated-Signature scheme, with 400/401/404', () => {
    const operation = operationOf(document, routes.providerNotification);
    expect(operation.requestBody?.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/SimulatedNotification' });
    const union = schemas.SimulatedNotification as { anyOf: { properties: { type: Json } }[] };
    expect(union.anyOf.map((member) => member.properties.type)).toEqual(
      expect.arrayContaining([
        { type: 'string', const: 'pix.paid' },
        { type: 'string', const: 'boleto.paid' },
        expect.objectContaining({ enum: ['charge.canceled', 'charge.refunded'] }),
      ]),
    );
    expect(operation.security).toEqual([{ simulatedSignature: [] }]);
    const schemes = (document.components as { securitySchemes: Record<string, Json> }).securitySchemes;
    expect(schemes.simulatedSignature).toMatchObject({ type: 'apiKey', in: 'header', name: 'Simulated-Signature' });
    expect(statuses(routes.providerNotification)).toEqual(expect.arrayContaining(['200', '400', '401', '404', '413', '500', '503']));
  });

  it('documents the same notifications the simulated provider accepts', () => {
    const provider = simulatedProvider({ locationBase: 'https://pay.example.com' });
    const now = new Date('2026-11-20T12:00:00.000Z');
    const secret = 'whsec_test';
    const samples: unknown[] = [
      { id: 'n1', type: 'pix.paid', txid: 'abc', occurred_at: now.toISOString() },
      { id: 'n2', type: 'boleto.paid', reference: 'INV-ABCDEF' },
      { id: 'n3', type: 'pixout.paid', reference: 'WD-1', end_to_end_id: 'E'.repeat(32) },
      { id: 'n4', type: 'pixout.refused', reference: 'WD-1', reason: 'no' },
      { id: 'n5', type: 'charge.refunded', reference: 'INV-ABCDEF', occurred_at: 'yesterday' },
      { id: '', type: 'pix.paid', txid: 'abc' },
      { id: 'n6', type: 'pix.expired', txid: 'abc' },
      { id: 'n7', type: 'pixout.paid', reference: 'WD-1', end_to_end_id: 'short' },
      { id: 'n8', type: 'pix.paid', txid: 'x'.repeat(36) },
    ];
    const verdicts = samples.map((sample) => {
      const body = JSON.stringify(sample);
      let accepted: boolean;
      try {
        provider.parseNotification(body, { 'simulated-signature': signatureHeader(body, secret, now.getTime() / 1000) }, secret, now);
        accepted = true;
      } catch {
        accepted = false;
      }
      return { accepted, documented: simulatedNotificationSchema.safeParse(sample as SimulatedNotification).success };
    });
    expect(verdicts.filter((v) => v.accepted).length).toBe(4);
    for (const [i, verdict] of verdicts.entries()) expect(verdict.documented, JSON.stringify(samples[i])).toBe(verdict.accepted);
  });

  it('declares 409 on PUT /api/webhook, 502 on the card charge and 503 on the CEP search', () => {
    expect(operationOf(document, routes.putWebhook).responses['409']?.description).toContain('same moment');
    expect(statuses(routes.createCard)).toEqual(expect.arrayContaining(['400', '502', '503']));
    expect(operationOf(document, routes.searchCep).responses['503']?.description).toContain('upstream_unavailable');
  });

  it('declares 503 temporary_conflict with Retry-After on every route that touches the table, 429 wherever a limit applies', () => {
    for (const route of routeList) {
      const responses = operationOf(document, route).responses;
      if (route.access === 'none') expect(responses['503'], route.id).toBeUndefined();
      else expect(responses['503']?.headers?.['Retry-After'] ?? responses['503']?.description, route.id).toBeDefined();
      if (mayBeRateLimited(route)) expect(responses['429']?.headers?.['Retry-After'], route.id).toBeDefined();
      else expect(responses['429'], route.id).toBeUndefined();
    }
    expect(operationOf(document, routes.balance).responses['503']?.description).toContain('temporary_conflict');
    // The per-IP limit of unauthenticated routes that touch the table (issue 17 item 4) is declared too.
    expect(operationOf(document, routes.providerNotification).responses['429']).toBeDefined();
    expect(operationOf(document, routes.boletoPage).responses['429']).toBeDefined();
    expect(operationOf(document, routes.openApiDocument).responses['429']).toBeUndefined();
  });

  it("declares the HTML routes' pages with the content type they answer", () => {
    const html = 'text/html; charset=utf-8';
    const mediaTypes = (route: AnyRoute, status: string) => Object.keys((operationOf(document, route).responses[status]?.content ?? {}) as Json);
    expect(mediaTypes(routes.boletoPage, '200')).toEqual([html]);
    expect(mediaTypes(routes.checkoutPage, '200')).toEqual([html]);
    expect(mediaTypes(routes.openApiDocument, '200')).toEqual(['application/yaml; charset=utf-8']);
  });

  it('states the limits zod enforces: integer format and bounds, maxLength of a bounded pattern', () => {
    const walk = (value: unknown, visit: (node: Json) => void) => {
      if (Array.isArray(value)) value.forEach((v) => walk(v, visit));
      else if (value && typeof value === 'object') {
        visit(value as Json);
        Object.values(value).forEach((v) => walk(v, visit));
      }
    };
    let integers = 0;
    walk(document, (node) => {
      if (node.type !== 'integer') return;
      integers += 1;
      expect(['int32', 'int64'], JSON.stringify(node)).toContain(node.format);
      expect(node.maximum ?? node.exclusiveMaximum, JSON.stringify(node)).toBeDefined();
      expect(node.minimum ?? node.exclusiveMinimum, JSON.stringify(node)).toBeDefined();
    });
    expect(integers).toBeGreaterThan(10);
    // A bounded pattern states its maxLength (a date: 10 characters).
    const dueDate = ((document.components as { schemas: Record<string, { properties: Record<string, Json> }> }).schemas.CreatePixCharge?.properties ?? {})
      .due_date;
    expect(dueDate).toMatchObject({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 });
    // The invoice id is an integer, as the spec says (read from the path as digits): no string limits stated on it.
    const invoiceId = operationOf(document, routes.getInvoice).parameters.find((p) => p.name === 'invoice_id');
    expect(invoiceId?.schema).toEqual({ type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: expect.any(String) });
  });
});

describe('patternMaxLength', () => {
  it.each([
    ['^\\d{4}-\\d{2}-\\d{2}$', 10],
    ['^[A-Za-z0-9_.:-]{8,100}$', 100],
    ['^(?:a|bcd)?x$', 4],
    ['^\\d{5}-?\\d{3}$', 9],
    ['^[^\\]]{2}$', 2],
    ['^(?=x)x{3}$', 3],
  ])('bounds %s at %i', (pattern, max) => {
    expect(patternMaxLength(pattern)).toBe(max);
    expect(new RegExp(pattern).test('x'.repeat(max + 1))).toBe(false);
  });

  it.each(['^a+$', '^a*b$', 'abc', '^abc', '^(\\d)\\1$', '^\\d{2,}$'])('gives no bound for %s', (pattern) => {
    expect(patternMaxLength(pattern)).toBeUndefined();
  });
});

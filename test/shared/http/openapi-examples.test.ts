import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, successStatus } from '../../../shared/http/openapi';
import { OPERATION_EXAMPLES } from '../../../shared/http/openapi-examples';
import { routeList } from '../../../shared/http/routes';
import { WEBHOOK_EVENTS } from '../../../shared/http/webhook-events';
import { WEBHOOK_EVENT_TYPES } from '../../../shared/domain/webhooks';
import { compileContract, operationsOf } from '../../support/openapi-contract';

type Json = Record<string, unknown>;
type Media = { schema: Json; example?: unknown; examples?: Record<string, { value: unknown }> };
type Parameter = { name: string; in: string; required: boolean; schema: Json; example?: unknown };
type Operation = {
  operationId: string;
  parameters: Parameter[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media>; headers?: Record<string, { schema: Json; required?: boolean }> }>;
};

const document = buildOpenApiDocument(routeList);
const contract = compileContract(document, routeList);
const operations = operationsOf(document).map(([method, path, operation]) => ({ method, path, operation: operation as unknown as Operation }));

/** Every example of an operation with the schema it must satisfy, named for the failure message. */
function examplesOf(operation: Operation): { where: string; schema: Json; value: unknown }[] {
  const out: { where: string; schema: Json; value: unknown }[] = [];
  for (const parameter of operation.parameters)
    if (parameter.example !== undefined) out.push({ where: `${parameter.in} ${parameter.name}`, schema: parameter.schema, value: parameter.example });
  for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
    if (media.example !== undefined) out.push({ where: `request ${type}`, schema: media.schema, value: media.example });
  for (const [status, response] of Object.entries(operation.responses))
    for (const [type, media] of Object.entries(response.content ?? {})) {
      if (media.example !== undefined) out.push({ where: `${status} ${type}`, schema: media.schema, value: media.example });
      for (const [name, example] of Object.entries(media.examples ?? {}))
        out.push({ where: `${status} ${type} (${name})`, schema: media.schema, value: example.value });
    }
  return out;
}

describe('the examples of the OpenAPI document', () => {
  it('has an example for every route of the table, and none for a route it lacks', () => {
    expect(Object.keys(OPERATION_EXAMPLES).sort()).toEqual(routeList.map((route) => route.id).sort());
  });

  it('gives each operation an example of its request: every path parameter and every request body media type', () => {
    const missing: string[] = [];
    for (const { operation } of operations) {
      for (const parameter of operation.parameters.filter((p) => p.in === 'path'))
        if (parameter.example === undefined) missing.push(`${operation.operationId}: path ${parameter.name}`);
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
        if (media.example === undefined) missing.push(`${operation.operationId}: request ${type}`);
    }
    expect(missing).toEqual([]);
  });

  it('gives each operation an example of its success answer, in every media type it declares', () => {
    const missing: string[] = [];
    for (const route of routeList) {
      const operation = operations.find((o) => o.operation.operationId === route.id)?.operation;
      const status = successStatus(route);
      const content = status === undefined ? undefined : operation?.responses[String(status)]?.content;
      if (!content || Object.keys(content).length === 0) missing.push(`${route.id}: no success content`);
      for (const [type, media] of Object.entries(content ?? {})) if (media.example === undefined) missing.push(`${route.id}: ${status} ${type}`);
    }
    expect(missing).toEqual([]);
  });

  it('validates every example (parameters, requests, successes, errors) against its own schema', () => {
    const checked = operations.flatMap(({ operation }) =>
      examplesOf(operation).map((example) => ({ ...example, where: `${operation.operationId} ${example.where}` })),
    );
    expect(checked.length).toBeGreaterThan(routeList.length * 3);
    const invalid = checked.flatMap(({ where, schema, value }) => {
      const errors = contract.validate(schema, value);
      return errors ? [`${where}: ${errors}`] : [];
    });
    expect(invalid).toEqual([]);
  });

  it('gives an example body for every JSON error it declares', () => {
    const bare: string[] = [];
    for (const { operation } of operations)
      for (const [status, response] of Object.entries(operation.responses)) {
        const json = response.content?.['application/json'];
        if (Number(status) >= 400 && json && json.example === undefined && json.examples === undefined) bare.push(`${operation.operationId} ${status}`);
      }
    expect(bare).toEqual([]);
  });

  it('catches an example that disagrees with its schema', () => {
    const balance = operations.find((o) => o.operation.operationId === 'GetBalance')?.operation;
    const schema = balance?.responses['200']?.content?.['application/json']?.schema ?? {};
    expect(contract.validate(schema, { balance: { available: '163.00', reserved: '0.00', currency: 'BRL' } })).toBeUndefined();
    expect(contract.validate(schema, { balance: { available: 163, reserved: '0.00', currency: 'BRL' } })).toMatch(/\/balance\/available must be string/);
  });
});

describe('the webhooks of the OpenAPI document', () => {
  const hooks = document.webhooks as Record<string, { post: Operation & { requestBody: { content: Record<string, Media> } } }>;

  it('lists every event type the service sends, each a signed POST with a JSON body', () => {
    expect(Object.keys(hooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const [type, hook] of Object.entries(hooks)) {
      expect(
        hook.post.parameters.map((p) => p.name),
        type,
      ).toEqual(['Service-Signature', 'Service-Event-Id', 'User-Agent']);
      expect(Object.keys(hook.post.requestBody.content), type).toEqual(['application/json']);
    }
  });

  it('gives each event an example that validates against its schema, with its own type', () => {
    for (const [type, hook] of Object.entries(hooks)) {
      const media = hook.post.requestBody.content['application/json'];
      expect(media?.example, type).toBeDefined();
      expect((media?.example as { type?: string }).type, type).toBe(type);
      expect(contract.validate(media?.schema ?? {}, media?.example), type).toBeUndefined();
    }
  });

  it("refuses an event body of another type or missing its data's fields", () => {
    const paid = hooks['invoice.paid']?.post.requestBody.content['application/json'];
    const example = WEBHOOK_EVENTS['invoice.paid'].example as { data: { invoice: Json } };
    expect(contract.validate(paid?.schema ?? {}, { ...example, type: 'invoice.canceled' })).toMatch(/\/type/);
    const { total: _total, ...withoutTotal } = example.data.invoice;
    expect(contract.validate(paid?.schema ?? {}, { ...example, data: { invoice: withoutTotal } })).toMatch(/total/);
  });
});

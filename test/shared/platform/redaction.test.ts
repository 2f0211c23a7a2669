import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context, DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handler as payoutHandler } from '../../../functions/workers/payout';
import { handler as forwarderHandler } from '../../../functions/workers/stream-forwarder';
import { handler as webhookHandler } from '../../../functions/workers/webhook-sender';
import { ValidationError } from '../../../shared/domain/errors';
import { observe } from '../../../shared/http/middleware/observe';
import { routes } from '../../../shared/http/routes';
import type { HttpResult, PendingAnswer, PipelineContext } from '../../../shared/http/state';
import { endInvocation, logger, startInvocation, withLogKeys } from '../../../shared/platform/logger';
import { BUSINESS_METRICS, countMetric, flushMetrics } from '../../../shared/platform/metrics';
import { isTaxpayerDocument, passesLuhn, REDACTED, redactLogValue, redactText } from '../../../shared/platform/redaction';
import type { Runtime } from '../../../shared/wiring/runtime';
import { findLeaks } from '../../support/leak-scan';
import { sqsEvent } from '../../support/sqs-event';

/** One of each: a card number (printed and bare), a CVV, a secret key, a Bearer token, a webhook secret, a CPF and CNPJs. */
const SECRETS = {
  card: '4111 1111 1111 1111',
  bareCard: '5555555555554444',
  cvv: '735',
  secretKey: `SEC-${'a1B2c3D4'.repeat(6)}`,
  token: 'pgt_eyJhIjoiYWNjdF8xMjMifQ.c2lnbmF0dXJlLXZhbHVlLWhlcmU',
  webhookSecret: 'whsec_0123456789abcdefghijABCDEFGHIJ',
  cpf: '529.982.247-25',
  bareCpf: '52998224725',
  cnpj: '11.222.333/0001-81',
  alphanumericCnpj: '12ABC34501DE35',
} as const;
const TEXT = `card ${SECRETS.card} / ${SECRETS.bareCard} cvv=${SECRETS.cvv} key ${SECRETS.secretKey} Authorization: Bearer ${SECRETS.token} secret ${SECRETS.webhookSecret} cpf ${SECRETS.cpf} ${SECRETS.bareCpf} cnpj ${SECRETS.cnpj} ${SECRETS.alphanumericCnpj}`;
/** The same as a JSON body, as a caller would send it. */
const BODY = JSON.stringify({ creditcard_number: SECRETS.bareCard, creditcard_cvv: SECRETS.cvv, document: SECRETS.cpf, note: TEXT });

/** What must not appear in any output: each secret, and its digits alone. */
const needles = Object.values(SECRETS)
  .flatMap((s) => [s, s.replace(/[^0-9A-Za-z]/g, '')])
  .filter((s) => s.length >= 11 || s === SECRETS.cvv);

/** Everything this process writes to stdout and stderr (log lines and EMF metric lines alike). */
function captureOutput(): { text: () => string; stop: () => void } {
  const chunks: string[] = [];
  const restores = [process.stdout, process.stderr].map((stream) => {
    const original = stream.write;
    stream.write = function (this: NodeJS.WriteStream, ...args: unknown[]) {
      const [chunk] = args;
      chunks.push(typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : '');
      return (original as (...a: unknown[]) => boolean).apply(this, args);
    } as typeof stream.write;
    return () => {
      stream.write = original;
    };
  });
  return { text: () => chunks.join(''), stop: () => restores.forEach((restore) => restore()) };
}

function expectNoSecrets(output: string): void {
  const lines = output.split('\n').filter((line) => line.trim().startsWith('{'));
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    expect(findLeaks(line), line).toEqual([]);
    for (const needle of needles) {
      if (needle === SECRETS.cvv) expect(line, line).not.toMatch(/cvv[^0-9]{0,12}735/i);
      else expect(line.includes(needle), `${needle} in ${line}`).toBe(false);
    }
  }
}

const lambdaContext = (functionName: string): Context =>
  ({ awsRequestId: 'lambda-req-1', functionName, invokedFunctionArn: `arn:aws:lambda:::function:${functionName}` }) as Context;

/** The observe step alone around an implementation: the request line, the error line, the metrics of an answer. */
function observed(implementation: () => Promise<HttpResult>) {
  const route = routes.openApiDocument;
  return middy<APIGatewayProxyEventV2, HttpResult, Error, PipelineContext>()
    .use(observe(route, () => ({}) as Runtime))
    .handler(implementation);
}

const apiEvent = (reference: string): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: 'GET /x',
    rawPath: '/x',
    rawQueryString: '',
    headers: { authorization: `Bearer ${SECRETS.token}` },
    pathParameters: { reference },
    requestContext: { requestId: 'apigw-req-1' },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

let output: ReturnType<typeof captureOutput>;
beforeAll(() => {
  process.env.TABLE_NAME ??= 'log-redaction-table';
  process.env.MASTER_KEY_SECRET_ID ??= 'log-redaction-secret';
});
beforeEach(() => {
  output = captureOutput();
});
afterEach(() => {
  output.stop();
});

describe('the redaction rules (pure)', () => {
  it('finds card numbers by Luhn, documents by check digits, and leaves ids, times and amounts alone', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect([SECRETS.cpf, SECRETS.bareCpf, SECRETS.cnpj, SECRETS.alphanumericCnpj].map(isTaxpayerDocument)).toEqual([true, true, true, true]);
    expect(isTaxpayerDocument('52998224726')).toBe(false);
    const harmless = 'invoice INV-ABC123 at 2026-11-23T10:00:00.000Z request 31e4d0b7-0722-41a2-8b0b-f8940d79cd1e total 1500 phone 11987654321';
    expect(redactText(harmless)).toBe(harmless);
    expect(redactText(TEXT)).not.toMatch(/4111|5555555555554444|SEC-|pgt_e|whsec_0|529\.982|52998224725|11\.222|12ABC34501DE35|=735/);
  });

  it('replaces whole values under sensitive keys and reduces errors to name, kind, code, message and stack', () => {
    expect(redactLogValue('creditcard_cvv', '123')).toBe(REDACTED);
    expect(redactLogValue('webhookSecretSealed', 'v1.x')).toBe(REDACTED);
    expect(redactLogValue('status', 200)).toBe(200);
    expect(redactLogValue('invoiceId', '4111111111111111')).toBe('4111111111111111');
    const error = Object.assign(new ValidationError({ document: ['x'] }), { Item: { document: SECRETS.cpf } });
    const logged = redactLogValue('error', error) as Record<string, unknown>;
    expect(Object.keys(logged).sort()).toEqual(['code', 'kind', 'message', 'name', 'stack']);
    expect(logged.kind).toBe('validation');
  });
});

describe('no secret reaches the output, on every log path', () => {
  it('the request line: a reference path parameter holding them, the Bearer header, a 200 answer', async () => {
    const handler = observed(async (): Promise<PendingAnswer> => ({ status: 200, body: '{}', contentType: 'application/json', headers: {}, replayed: false }));
    const result = await handler(apiEvent(TEXT), lambdaContext('OpenApiDocument') as PipelineContext);
    expect(result).toMatchObject({ statusCode: 200 });
    const text = output.text();
    expect(text).toContain('"message":"request"');
    expectNoSecrets(text);
  });

  it('the error line: an unexpected error whose message, cause and own properties hold them', async () => {
    const handler = observed(async () => {
      throw Object.assign(new Error(`boom ${TEXT}`, { cause: new Error(`inner ${TEXT}`) }), { body: BODY, cvv: SECRETS.cvv });
    });
    const result = await handler(apiEvent('INV-ABC123'), lambdaContext('OpenApiDocument') as PipelineContext);
    expect(result).toMatchObject({ statusCode: 500 });
    const text = output.text();
    expect(text).toContain('"message":"request failed"');
    expect(text).toContain('boom card');
    expectNoSecrets(text);
  });

  it('the domain lines: a message and attributes holding them, inside and outside an invocation', () => {
    startInvocation(lambdaContext('Domain'), { route: 'CreateCustomer' });
    logger.warn(`payout not requested: ${TEXT}`, { error: TEXT, creditcard_number: SECRETS.bareCard, document: SECRETS.cpf, cvv: SECRETS.cvv });
    withLogKeys({ reference: SECRETS.bareCpf }, () => logger.info('invoice moved', { body: BODY, details: { pixkey: SECRETS.cpf, note: TEXT } }));
    endInvocation();
    logger.error(TEXT, new Error(TEXT));
    const text = output.text();
    expect(text).toContain('payout not requested');
    expectNoSecrets(text);
  });

  it('the workers: SQS bodies that are not messages (their parse error quotes them), a stream record of no forwarded type', async () => {
    const body = `{"eventId": "${SECRETS.webhookSecret}", ${TEXT}`;
    const webhook = await webhookHandler(sqsEvent([body, BODY], 'webhooks'), lambdaContext('webhooksWorker'));
    expect(webhook.batchItemFailures).toHaveLength(2);
    const payout = await payoutHandler(sqsEvent([`{"reference": "${SECRETS.bareCpf}", ${TEXT}`], 'payouts'), lambdaContext('payoutsWorker'));
    expect(payout.batchItemFailures).toHaveLength(1);
    const stream: DynamoDBStreamEvent = {
      Records: [{ eventName: 'INSERT', dynamodb: { NewImage: { type: { S: 'customer' }, document: { S: SECRETS.cpf }, note: { S: TEXT } } } }],
    };
    expect(await forwarderHandler(stream)).toEqual({ batchItemFailures: [] });
    const text = output.text();
    expect(text).toContain('webhook message not processed');
    expect(text).toContain('payout message returned to the queue');
    expectNoSecrets(text);
  });

  it('the metric lines: names and low-cardinality dimensions only', () => {
    countMetric(BUSINESS_METRICS.webhookAttempts);
    countMetric(BUSINESS_METRICS.chargesCreated, { method: 'pix' });
    flushMetrics();
    const text = output.text();
    expect(text).toContain('"WebhookAttempts":1');
    expect(text).toContain('"ChargesCreated":1');
    expectNoSecrets(text);
  });
});

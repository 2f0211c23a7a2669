import { Readable } from 'node:stream';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { HttpResponse, type HttpRequest } from '@smithy/core/transport';
import { describe, expect, it, vi } from 'vitest';
import { trimPerCallWork } from '../../../../shared/adapters/aws/per-call-work';
import { createDb } from '../../../../shared/adapters/dynamo/dynamo';

/** A DynamoDB endpoint answered in-process: every call gets the same item; the signed requests are kept. */
function answeredInProcess() {
  const sent: HttpRequest[] = [];
  const body = JSON.stringify({ Item: { PK: { S: 'ACCOUNT#1' }, SK: { S: 'ACCOUNT' }, name: { S: 'Loja' } } });
  const requestHandler = {
    handle: async (request: HttpRequest) => {
      sent.push(request);
      return {
        response: new HttpResponse({
          statusCode: 200,
          headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'r' },
          body: Readable.from([Buffer.from(body)]),
        }),
      };
    },
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
  };
  return { sent, requestHandler };
}

const logger = () => ({ debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() });
const get = new GetCommand({ TableName: 'T', Key: { PK: 'ACCOUNT#1', SK: 'ACCOUNT' }, ConsistentRead: true });
const credentialOf = (request: HttpRequest) => /Credential=([^/]+)\//.exec(String(request.headers.authorization))?.[1];

function client(options: { credentials?: () => Promise<{ accessKeyId: string; secretAccessKey: string }>; log?: ReturnType<typeof logger> } = {}) {
  const endpoint = answeredInProcess();
  const raw = new DynamoDBClient({
    region: 'sa-east-1',
    endpoint: 'http://127.0.0.1:9',
    credentials: options.credentials ?? { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    requestHandler: endpoint.requestHandler,
    ...(options.log ? { logger: options.log } : {}),
  });
  return { raw, sent: endpoint.sent };
}

describe('trimPerCallWork', () => {
  it('takes the logger middleware out: a call no longer runs its input and output through the log filter', async () => {
    const untrimmed = logger();
    const plain = client({ log: untrimmed });
    expect(plain.raw.middlewareStack.identify().some((name) => name.startsWith('loggerMiddleware'))).toBe(true);
    await plain.raw.send(new GetItemCommand({ TableName: 'T', Key: { PK: { S: 'ACCOUNT#1' }, SK: { S: 'ACCOUNT' } } }));
    expect(untrimmed.info).toHaveBeenCalledTimes(1);

    const trimmed = logger();
    const after = client({ log: trimmed });
    const db = createDb(after.raw);
    expect(after.raw.middlewareStack.identify().some((name) => name.startsWith('loggerMiddleware'))).toBe(false);
    const out = await db.send(get);
    expect(out.Item).toEqual({ PK: 'ACCOUNT#1', SK: 'ACCOUNT', name: 'Loja' });
    expect(trimmed.info).not.toHaveBeenCalled();
  });

  it('builds the SigV4 signer once per auth scheme, not once per call, and every call is still signed', async () => {
    const { raw, sent } = client();
    const build = vi.fn(raw.config.signer);
    raw.config.signer = build;
    const db = createDb(raw);
    for (let i = 0; i < 3; i += 1) await db.send(get);
    expect(build).toHaveBeenCalledTimes(1);
    expect(sent).toHaveLength(3);
    for (const request of sent)
      expect(String(request.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/sa-east-1\/dynamodb\/aws4_request/);
  });

  it('asks the credential provider at every signing: rotated credentials sign the next call', async () => {
    let n = 0;
    const { raw, sent } = client();
    // A provider whose every identity is new (as after a rotation).
    raw.config.credentials = async () => ({ accessKeyId: `AKID${(n += 1)}`, secretAccessKey: `secret${n}`, expiration: new Date(0) });
    const db = createDb(raw);
    await db.send(get);
    await db.send(get);
    const used = sent.map(credentialOf);
    expect(used).toHaveLength(2);
    expect(used[0]).not.toEqual(used[1]);
  });

  it('does not keep a signer whose build failed: the next call builds again', async () => {
    const { raw } = client();
    const original = raw.config.signer;
    const build = vi.fn().mockRejectedValueOnce(new Error('region not resolved')).mockImplementation(original);
    raw.config.signer = build;
    const db = createDb(raw);
    await expect(db.send(get)).rejects.toThrow('region not resolved');
    await expect(db.send(get)).resolves.toMatchObject({ Item: { name: 'Loja' } });
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('applies to any SDK v3 client (the SQS client the queues use)', () => {
    const sqs = trimPerCallWork(new SQSClient({ region: 'sa-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } }));
    expect(sqs.middlewareStack.identify().some((name) => name.startsWith('loggerMiddleware'))).toBe(false);
  });
});

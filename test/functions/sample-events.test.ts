import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEventV2, DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { readEvent } from '../../events/invoke';

/** The shared sample events under events/ are what the handler tests and manual invocations feed in: check they are well formed. */
const ROOT = join(import.meta.dirname, '..', '..');
const load = (file: string) => readEvent(join(ROOT, 'events', file));

describe('events/apigw samples', () => {
  it.each([
    ['auth-token.json', 'POST', '/api/auth', 'POST /api/auth'],
    ['get-balance.json', 'GET', '/api/balance', 'GET /api/balance'],
    ['not-found.json', 'GET', '/api/nope', '$default'],
    ['method-not-allowed.json', 'DELETE', '/api/auth', '$default'],
  ])('%s is a payload 2.0 event for %s %s', (file, method, path, routeKey) => {
    const event = load(`apigw/${file}`) as APIGatewayProxyEventV2;
    expect(event.version).toBe('2.0');
    expect(event.routeKey).toBe(routeKey);
    expect(event.requestContext.routeKey).toBe(routeKey);
    expect(event.rawPath).toBe(path);
    expect(event.requestContext.http).toMatchObject({ method, path });
    expect(event.requestContext.stage).toBe('$default');
    expect(event.isBase64Encoded).toBe(false);
    expect(event.body).toBeUndefined();
    for (const name of Object.keys(event.headers)) expect(name).toBe(name.toLowerCase());
    expect(event.headers['x-forwarded-for']).toBe(event.requestContext.http.sourceIp);
    expect(new Date(event.requestContext.timeEpoch).getUTCFullYear()).toBe(2026);
  });

  it('auth-token.json carries Basic credentials that decode to obviously fake keys', () => {
    const event = load('apigw/auth-token.json') as APIGatewayProxyEventV2;
    const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(event.headers.authorization ?? '');
    expect(match).not.toBeNull();
    const decoded = Buffer.from(match?.[1] ?? '', 'base64').toString('utf8');
    expect(decoded).toMatch(/^PUB-FAKE[A-Za-z0-9]{28}:SEC-FAKE[A-Za-z0-9]{44}$/);
  });

  it('get-balance.json carries a Bearer placeholder, not a token', () => {
    const event = load('apigw/get-balance.json') as APIGatewayProxyEventV2;
    expect(event.headers.authorization).toBe('Bearer <ACCESS_TOKEN>');
  });
});

describe('events/sqs/batch.json', () => {
  const event = load('sqs/batch.json') as SQSEvent;

  it('has 2 SQS records from one queue, with distinct ids and the MD5 of each body', () => {
    expect(event.Records).toHaveLength(2);
    expect(new Set(event.Records.map((r) => r.messageId)).size).toBe(2);
    for (const record of event.Records) {
      expect(record.eventSource).toBe('aws:sqs');
      expect(record.eventSourceARN).toMatch(/^arn:aws:sqs:us-east-1:\d{12}:[\w-]+$/);
      expect(record.md5OfBody).toBe(createHash('md5').update(record.body).digest('hex'));
      expect(() => JSON.parse(record.body) as unknown).not.toThrow();
      expect(Number(record.attributes.ApproximateReceiveCount)).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('events/dynamodb/stream-insert.json', () => {
  const event = load('dynamodb/stream-insert.json') as DynamoDBStreamEvent;

  it('is one INSERT record of the event item, with NEW_AND_OLD_IMAGES', () => {
    expect(event.Records).toHaveLength(1);
    const [record] = event.Records;
    expect(record?.eventName).toBe('INSERT');
    expect(record?.eventSource).toBe('aws:dynamodb');
    const change = record?.dynamodb;
    expect(change?.StreamViewType).toBe('NEW_AND_OLD_IMAGES');
    expect(unmarshall((change?.NewImage ?? {}) as Record<string, AttributeValue>)).toEqual({ PK: 'EVT#x', SK: 'EVT', type: 'event' });
    expect(unmarshall((change?.Keys ?? {}) as Record<string, AttributeValue>)).toEqual({ PK: 'EVT#x', SK: 'EVT' });
    expect(change?.OldImage).toBeUndefined();
    expect(record?.eventSourceARN).toMatch(/^arn:aws:dynamodb:us-east-1:\d{12}:table\/[\w-]+\/stream\//);
  });
});

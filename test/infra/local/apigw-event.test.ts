import { describe, expect, it } from 'vitest';
import { lambdaContext, toHttpApiEvent, type IncomingRequest } from '../../../infra/local/apigw-event';

function request(overrides: Partial<IncomingRequest> = {}): IncomingRequest {
  return {
    method: 'GET',
    url: '/api/balance',
    headers: { host: '127.0.0.1:3000' },
    body: Buffer.alloc(0),
    sourceIp: '127.0.0.5',
    host: '127.0.0.1:3000',
    ...overrides,
  };
}

describe('toHttpApiEvent', () => {
  it('builds a payload 2.0 event with the route key, path and method', () => {
    const event = toHttpApiEvent(request({ method: 'get' }), 'GET /api/balance', undefined);
    expect(event.version).toBe('2.0');
    expect(event.routeKey).toBe('GET /api/balance');
    expect(event.requestContext.routeKey).toBe('GET /api/balance');
    expect(event.rawPath).toBe('/api/balance');
    expect(event.rawQueryString).toBe('');
    expect(event.requestContext.http.method).toBe('GET');
    expect(event.requestContext.http.path).toBe('/api/balance');
    expect(event.requestContext.stage).toBe('$default');
    expect(event.queryStringParameters).toBeUndefined();
    expect(event.pathParameters).toBeUndefined();
    expect(event.cookies).toBeUndefined();
    expect(event.body).toBeUndefined();
    expect(event.isBase64Encoded).toBe(false);
    expect(Math.abs(event.requestContext.timeEpoch - Date.now())).toBeLessThan(60_000);
    expect(event.requestContext.requestId).not.toBe(toHttpApiEvent(request(), 'GET /api/balance', undefined).requestContext.requestId);
  });

  it('sets the source IP and the user agent', () => {
    const event = toHttpApiEvent(request({ headers: { 'User-Agent': 'curl/8.5.0' }, sourceIp: '127.9.8.7' }), '$default', undefined);
    expect(event.requestContext.http.sourceIp).toBe('127.9.8.7');
    expect(event.requestContext.http.userAgent).toBe('curl/8.5.0');
  });

  it('lower-cases header names and joins repeated headers with commas', () => {
    const event = toHttpApiEvent(
      request({
        headers: { Authorization: 'Bearer tok', 'Idempotency-Key': 'key-12345678', 'X-Forwarded-For': ['1.1.1.1', '2.2.2.2'], 'x-absent': undefined },
      }),
      '$default',
      undefined,
    );
    expect(event.headers).toEqual({ authorization: 'Bearer tok', 'idempotency-key': 'key-12345678', 'x-forwarded-for': '1.1.1.1,2.2.2.2' });
  });

  it('splits cookies out of the headers', () => {
    const event = toHttpApiEvent(request({ headers: { Cookie: 'session=abc; theme=dark;lang=pt-BR', accept: '*/*' } }), '$default', undefined);
    expect(event.cookies).toEqual(['session=abc', 'theme=dark', 'lang=pt-BR']);
    expect(event.headers).toEqual({ accept: '*/*' });
  });

  it('joins repeated query keys with commas and keeps the raw query string', () => {
    const event = toHttpApiEvent(request({ url: '/api/invoice?status=paid&limit=10&status=pending&q=a%20b' }), 'GET /api/invoice', undefined);
    expect(event.rawQueryString).toBe('status=paid&limit=10&status=pending&q=a%20b');
    expect(event.queryStringParameters).toEqual({ status: 'paid,pending', limit: '10', q: 'a b' });
  });

  // Fails today: `name in query` is also true for Object.prototype members, so the first value of
  // `constructor` or `toString` is appended to the inherited function's source text.
  it('treats query keys named like Object.prototype members as ordinary keys', () => {
    const event = toHttpApiEvent(request({ url: '/api/invoice?constructor=a&toString=b&valueOf=c' }), 'GET /api/invoice', undefined);
    expect(event.queryStringParameters).toEqual({ constructor: 'a', toString: 'b', valueOf: 'c' });
  });

  it('passes path parameters through, and omits them when empty', () => {
    const event = toHttpApiEvent(request({ url: '/api/invoice/inv_1' }), 'GET /api/invoice/{invoice_id}', { invoice_id: 'inv_1' });
    expect(event.pathParameters).toEqual({ invoice_id: 'inv_1' });
    expect(toHttpApiEvent(request(), 'GET /api/balance', {}).pathParameters).toBeUndefined();
  });

  it('passes a text body as is, not base64-encoded', () => {
    const json = '{"amount":"10.00","name":"Jo\u00e3o"}';
    const event = toHttpApiEvent(
      request({ method: 'POST', url: '/api/pix', headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: Buffer.from(json, 'utf8') }),
      'POST /api/pix',
      undefined,
    );
    expect(event.body).toBe(json);
    expect(event.isBase64Encoded).toBe(false);
    const plain = toHttpApiEvent(request({ method: 'POST', headers: { 'content-type': 'text/plain' }, body: Buffer.from('hello') }), '$default', undefined);
    expect(plain.body).toBe('hello');
    expect(plain.isBase64Encoded).toBe(false);
  });

  it('base64-encodes a binary body', () => {
    const bytes = Buffer.from([0x00, 0xff, 0x10, 0x80, 0x7f, 0xc3]);
    const event = toHttpApiEvent(request({ method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: bytes }), '$default', undefined);
    expect(event.isBase64Encoded).toBe(true);
    expect(event.body).toBe(bytes.toString('base64'));
    expect(Buffer.from(event.body ?? '', 'base64').equals(bytes)).toBe(true);
  });

  it('keeps the Host as the domain name', () => {
    const event = toHttpApiEvent(request({ host: 'api.example.test' }), '$default', undefined);
    expect(event.requestContext.domainName).toBe('api.example.test');
    expect(event.requestContext.domainPrefix).toBe('api');
  });
});

describe('lambdaContext', () => {
  it('names the function and counts down the remaining time', () => {
    const context = lambdaContext('GetBalance', 5_000);
    expect(context.functionName).toBe('GetBalance');
    expect(context.invokedFunctionArn).toMatch(/:function:GetBalance$/);
    const remaining = context.getRemainingTimeInMillis();
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBeLessThanOrEqual(5_000);
    expect(lambdaContext('x').awsRequestId).not.toBe(lambdaContext('x').awsRequestId);
  });
});

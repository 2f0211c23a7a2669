import { describe, expect, it } from 'vitest';
import { viewerRequestSource } from '../../../infra/edge/viewer-request';
import { type EdgeEvent, type EdgeRequest, type EdgeResponse, loadEdgeFunction } from '../../../infra/local/edge';
import { EDGE_CLIENT_IP_HEADER, EDGE_ORIGIN_HEADER } from '../../../shared/http/edge-origin';
import { MAX_BODY_BYTES, MAX_HEADER_BYTES } from '../../../shared/http/request-limits';

/**
 * Issue 17, item 7, deployed: the CloudFront function in front of the HTTP API answers 413 and 431 in
 * the spec's error shape before API Gateway (which has no gateway responses) could answer with its
 * own body, and hands the origin the viewer's address. Run here from the very source the stack deploys.
 */
const edge = loadEdgeFunction();

function event(overrides: Partial<EdgeRequest> = {}, ip = '203.0.113.7'): EdgeEvent {
  return {
    version: '1.0',
    context: { eventType: 'viewer-request' },
    viewer: { ip },
    request: { method: 'POST', uri: '/api/pix/create', querystring: {}, headers: { host: { value: 'api.example.com' } }, cookies: {}, ...overrides },
  };
}

function asResponse(result: EdgeRequest | EdgeResponse): EdgeResponse {
  if (!('statusCode' in result)) throw new Error('expected the edge to answer, it forwarded');
  return result;
}

function asRequest(result: EdgeRequest | EdgeResponse): EdgeRequest {
  if ('statusCode' in result) throw new Error(`expected the edge to forward, it answered ${result.statusCode}`);
  return result;
}

function expectRefusal(result: EdgeRequest | EdgeResponse, status: number, code: string): void {
  const response = asResponse(result);
  expect(response.statusCode).toBe(status);
  expect(response.headers?.['content-type']?.value).toBe('application/json; charset=utf-8');
  expect(response.headers?.['cache-control']?.value).toBe('no-store');
  expect(response.body?.encoding).toBe('text');
  const body = JSON.parse(response.body?.data ?? '') as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'error']);
  expect(body.code).toBe(code);
  expect(typeof body.error === 'string' && body.error.length > 0).toBe(true);
}

/** Headers whose counted size (names, ': ', values, CRLF) plus the request line is `total` bytes. */
function headersOfSize(total: number, base: EdgeRequest = event().request): Record<string, { value: string }> {
  const lineBytes = base.method.length + base.uri.length + 11;
  const hostBytes = 'host'.length + 4 + 'api.example.com'.length;
  const padName = 'x-pad';
  const pad = total - lineBytes - hostBytes - (padName.length + 4);
  return { host: { value: 'api.example.com' }, [padName]: { value: 'p'.repeat(pad) } };
}

describe('the edge function (CloudFront viewer request)', () => {
  it('answers 413 payload_too_large for a declared body past 1 MB; 1 MB exactly goes on', () => {
    expectRefusal(edge(event({ headers: { 'content-length': { value: String(MAX_BODY_BYTES + 1) } } })), 413, 'payload_too_large');
    expectRefusal(edge(event({ headers: { 'content-length': { value: String(20 * 1024 * 1024) } } })), 413, 'payload_too_large');
    asRequest(edge(event({ headers: { 'content-length': { value: String(MAX_BODY_BYTES) } } })));
  });

  it('answers 431 headers_too_large past 8 KB of request line and headers, counting headers, cookies and the query string', () => {
    asRequest(edge(event({ headers: headersOfSize(MAX_HEADER_BYTES) })));
    expectRefusal(edge(event({ headers: headersOfSize(MAX_HEADER_BYTES + 1) })), 431, 'headers_too_large');
    // The same bytes moved into a cookie or the query string count just the same.
    expectRefusal(edge(event({ cookies: { session: { value: 'c'.repeat(MAX_HEADER_BYTES) } } })), 431, 'headers_too_large');
    expectRefusal(edge(event({ querystring: { q: { value: 'q'.repeat(MAX_HEADER_BYTES) } } })), 431, 'headers_too_large');
    // Repeated values of one header count each time.
    const repeated = { value: 'v'.repeat(1000), multiValue: Array.from({ length: 9 }, () => ({ value: 'v'.repeat(1000) })) };
    expectRefusal(edge(event({ headers: { 'x-many': repeated } })), 431, 'headers_too_large');
  });

  it("hands the origin the viewer's address, overwriting what the client claimed, and drops a client-sent origin secret", () => {
    const forwarded = asRequest(
      edge(
        event(
          {
            headers: {
              host: { value: 'api.example.com' },
              [EDGE_CLIENT_IP_HEADER]: { value: '10.0.0.1' },
              [EDGE_ORIGIN_HEADER]: { value: 'guessed' },
              authorization: { value: 'Bearer t' },
            },
          },
          '198.51.100.23',
        ),
      ),
    );
    expect(forwarded.headers[EDGE_CLIENT_IP_HEADER]).toEqual({ value: '198.51.100.23' });
    expect(forwarded.headers[EDGE_ORIGIN_HEADER]).toBeUndefined();
    expect(forwarded.headers.authorization).toEqual({ value: 'Bearer t' });
    expect(forwarded.uri).toBe('/api/pix/create');
  });

  it('fits CloudFront Functions: under 10 KB of source, no module syntax, a top-level handler', () => {
    const source = viewerRequestSource();
    expect(Buffer.byteLength(source)).toBeLessThan(10 * 1024);
    expect(source).not.toMatch(/\b(import|export|require)\b/);
    expect(source).toMatch(/^function handler\(event\) \{$/m);
  });
});

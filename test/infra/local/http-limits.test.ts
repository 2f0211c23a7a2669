import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HEADERS_TOO_LARGE, parseErrorRefusal, PAYLOAD_TOO_LARGE, rawRefusal } from '../../../infra/local/http-server';
import { stack, uniqueIp } from '../../support/api';

/**
 * Issue 17, item 7: what never reaches a handler (a body past 1 MB and on past API Gateway's 10 MB,
 * headers past 8 KB, broken HTTP) is answered by the local gateway in the spec's error shape, over a
 * raw socket, never by a reset connection or an empty body.
 */

const MB = 1024 * 1024;

type RawReply = { status: number; headers: Record<string, string>; body: string; sawContinue: boolean; socketError?: string };

type BodyPlan = { bytes: number; chunked?: boolean; expectContinue?: boolean };

/** Decodes a chunked body (the pipeline's answers are chunked). */
function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    if (lineEnd < 0) return out;
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!(size > 0)) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

function parseReply(raw: string, socketError: string | undefined): RawReply {
  let text = raw;
  let sawContinue = false;
  while (text.startsWith('HTTP/1.1 100')) {
    sawContinue = true;
    text = text.slice(text.indexOf('\r\n\r\n') + 4);
  }
  const headEnd = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = (headEnd < 0 ? text : text.slice(0, headEnd)).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rawBody = headEnd < 0 ? '' : text.slice(headEnd + 4);
  const body = headers['transfer-encoding'] === 'chunked' ? dechunk(rawBody) : rawBody;
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body, sawContinue, ...(socketError ? { socketError } : {}) };
}

/**
 * Sends `head` (request line and headers, ending in CRLF CRLF) and then `plan.bytes` of body, reading
 * all the while, until the server closes. With expectContinue the body waits for `100 Continue` and is
 * never sent if a final answer comes first.
 */
function rawRequest(head: string, plan: BodyPlan = { bytes: 0 }): Promise<RawReply> {
  const { port } = new URL(stack().baseUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress: uniqueIp() });
    let received = '';
    let socketError: string | undefined;
    let sending = false;
    const piece = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < plan.bytes && !socket.destroyed && socket.writable) {
        const n = Math.min(piece.length, plan.bytes - sent);
        sent += n;
        const data = plan.chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), piece.subarray(0, n), Buffer.from('\r\n')]) : piece.subarray(0, n);
        if (!socket.write(data)) return void socket.once('drain', pump);
      }
      if (plan.chunked && sent >= plan.bytes && socket.writable) socket.write('0\r\n\r\n');
    };
    const startBody = () => {
      if (sending) return;
      sending = true;
      pump();
    };
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (plan.expectContinue && received.startsWith('HTTP/1.1 100')) startBody();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => (socketError ??= err.code ?? err.message));
    socket.on('close', () => resolve(parseReply(received, socketError)));
    const timer = setTimeout(() => socket.destroy(), 25_000);
    socket.once('close', () => clearTimeout(timer));
    socket.write(head);
    if (!plan.expectContinue) startBody();
  });
}

function postHead(path: string, extra: string[]): string {
  return [`POST ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: application/json', 'Connection: close', ...extra, '', ''].join('\r\n');
}

function expectRefusal(reply: RawReply, status: number, code: string) {
  expect(reply.socketError).toBeUndefined();
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(reply.body) as { error: unknown; code: unknown };
  expect(body).toEqual({ error: expect.any(String), code });
}

describe('the local gateway: bodies past the limit get 413 payload_too_large, never a reset', () => {
  for (const size of [2 * MB, 7 * MB, 25 * MB]) {
    it(`${size / MB} MB with Content-Length`, async () => {
      const reply = await rawRequest(postHead('/api/auth', [`Content-Length: ${size}`]), { bytes: size });
      expectRefusal(reply, 413, 'payload_too_large');
      expect(reply.body).toContain('1048576');
    });

    it(`${size / MB} MB chunked`, async () => {
      const reply = await rawRequest(postHead('/api/auth', ['Transfer-Encoding: chunked']), { bytes: size, chunked: true });
      expectRefusal(reply, 413, 'payload_too_large');
    });
  }

  it('past 6 MB (the gateway answers itself): Connection: close, before the whole body is read', async () => {
    const reply = await rawRequest(postHead('/api/auth', [`Content-Length: ${60 * MB}`]), { bytes: 60 * MB });
    expectRefusal(reply, 413, 'payload_too_large');
    expect(reply.headers.connection).toBe('close');
  });

  it('Expect: 100-continue past 6 MB: 413 at once, no 100 Continue, no body sent', async () => {
    const reply = await rawRequest(postHead('/api/auth', [`Content-Length: ${25 * MB}`, 'Expect: 100-continue']), { bytes: 25 * MB, expectContinue: true });
    expectRefusal(reply, 413, 'payload_too_large');
    expect(reply.sawContinue).toBe(false);
  });

  it('Expect: 100-continue at 2 MB: the edge function answers 413 at once, no 100 Continue, no body sent', async () => {
    const reply = await rawRequest(postHead('/api/auth', [`Content-Length: ${2 * MB}`, 'Expect: 100-continue']), { bytes: 2 * MB, expectContinue: true });
    expect(reply.sawContinue).toBe(false);
    expectRefusal(reply, 413, 'payload_too_large');
  });

  it('Expect: 100-continue at 1 MB exactly: 100 Continue, and the body reaches the handler', async () => {
    const reply = await rawRequest(postHead('/api/auth', [`Content-Length: ${MB}`, 'Expect: 100-continue']), { bytes: MB, expectContinue: true });
    expect(reply.sawContinue).toBe(true);
    expect(reply.status).toBe(401);
  });

  it('a body of 1 MB exactly reaches the handler (the limit is not one byte early)', async () => {
    const reply = await rawRequest(postHead('/api/auth', [`Content-Length: ${MB}`]), { bytes: MB });
    expect(reply.socketError).toBeUndefined();
    expect(reply.status).toBe(401);
  });
});

describe('the local gateway: headers past 8 KB get 431 headers_too_large (the edge function, then the parser); broken HTTP 400', () => {
  it('a 20 KB header: 431 in the spec shape (not an empty body)', async () => {
    const reply = await rawRequest(['GET /api/balance HTTP/1.1', 'Host: 127.0.0.1', `X-Big: ${'a'.repeat(20_000)}`, '', ''].join('\r\n'));
    expectRefusal(reply, 431, 'headers_too_large');
    expect(reply.headers.connection).toBe('close');
  });

  it('a 1 MB header: one 431, no reset', async () => {
    const reply = await rawRequest(['GET /api/balance HTTP/1.1', 'Host: 127.0.0.1', `X-Big: ${'a'.repeat(MB)}`, '', ''].join('\r\n'));
    expectRefusal(reply, 431, 'headers_too_large');
    expect(reply.body.match(/headers_too_large/g)).toHaveLength(1);
  });

  it("a 12 KB header: the edge function's 431 (under the parser's 16 KB, over the 8 KB limit)", async () => {
    const reply = await rawRequest(['GET /api/balance HTTP/1.1', 'Host: 127.0.0.1', 'Connection: close', `X-Big: ${'a'.repeat(12_000)}`, '', ''].join('\r\n'));
    expectRefusal(reply, 431, 'headers_too_large');
    expect(JSON.parse(reply.body)).toEqual({ error: HEADERS_TOO_LARGE.error, code: 'headers_too_large' });
  });

  it('headers just under 8 KB reach the handler; a few bytes more do not', async () => {
    const head = (n: number) => ['GET /api/balance HTTP/1.1', 'Host: 127.0.0.1', 'Connection: close', `X-Big: ${'a'.repeat(n)}`, '', ''].join('\r\n');
    expect((await rawRequest(head(8_000))).status).toBe(401);
    expectRefusal(await rawRequest(head(8_200)), 431, 'headers_too_large');
  });

  it('a request that is not HTTP: 400 bad_request', async () => {
    expectRefusal(await rawRequest('HELLO WORLD\r\n\r\n'), 400, 'bad_request');
  });

  it('broken chunk framing: 400 bad_request', async () => {
    expectRefusal(await rawRequest(`${postHead('/api/auth', ['Transfer-Encoding: chunked'])}zz\r\n`), 400, 'bad_request');
  });
});

describe('parse-error answers (pure)', () => {
  it('maps each parser error to its answer', () => {
    expect(parseErrorRefusal('HPE_HEADER_OVERFLOW')).toBe(HEADERS_TOO_LARGE);
    expect(parseErrorRefusal('HPE_CHUNK_EXTENSIONS_OVERFLOW')).toBe(PAYLOAD_TOO_LARGE);
    expect(parseErrorRefusal('ERR_HTTP_REQUEST_TIMEOUT')).toMatchObject({ status: 408, code: 'request_timeout' });
    expect(parseErrorRefusal('HPE_INVALID_METHOD')).toMatchObject({ status: 400, code: 'bad_request' });
    expect(parseErrorRefusal(undefined)).toMatchObject({ status: 400, code: 'bad_request' });
    expect(parseErrorRefusal('ECONNRESET')).toBeNull();
  });

  it('writes a complete HTTP/1.1 answer with its length', () => {
    const text = rawRefusal(HEADERS_TOO_LARGE);
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(head).toContain('Connection: close');
    expect(JSON.parse(body)).toEqual({ error: HEADERS_TOO_LARGE.error, code: 'headers_too_large' });
  });
});

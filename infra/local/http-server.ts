import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type GatewayRefusal, HEADERS_TOO_LARGE, MAX_HEADER_BYTES, PAYLOAD_TOO_LARGE, REFUSAL_HEADERS } from '../../shared/http/request-limits';
import { createRouter, functionIdOf } from '../../shared/http/route';
import { fallbackHandler, routeList } from '../../shared/http/routes';
import { lambdaContext, toHttpApiEvent } from './apigw-event';
import { loadEdgeFunction, passEdge } from './edge';
import { loadHandler } from './handlers';
import { runAsFunction } from './iam/hook';

/**
 * Lambda's synchronous invocation payload limit (6 MB): up to it a body reaches the handler, whose
 * pipeline answers 413 past 1 MB in the route's own shape (shared/http/middleware/json-body.ts). On
 * AWS a bigger request never reaches a handler; here the gateway answers 413 itself, without reading on.
 */
export const LAMBDA_MAX_BODY_BYTES = 6 * 1024 * 1024;
export { HEADERS_TOO_LARGE, MAX_HEADER_BYTES, PAYLOAD_TOO_LARGE };
/**
 * What Node's HTTP parser takes (pinned against NODE_OPTIONS): above the edge function's 8 KB, so the
 * function counts and answers; past it (CloudFront's own ceiling is 20,480 bytes) the parser refuses,
 * answered in the same shape.
 */
export const PARSER_MAX_HEADER_BYTES = 16 * 1024;
/**
 * After refusing a request, what the client still sends is read and dropped (nginx's "lingering
 * close") until it stops for LINGER_IDLE_MS, at most for LINGER_TOTAL_MS: closing a socket with unread
 * bytes resets the connection (RST), and a client still sending its body could lose the answer.
 */
const LINGER_IDLE_MS = 2_000;
const LINGER_TOTAL_MS = 15_000;
const LINGER_POLL_MS = 100;

const JSON_HEADERS = REFUSAL_HEADERS;

/** The answer to a request Node's HTTP parser refused ('clientError'), or null when the client is gone. */
export function parseErrorRefusal(code: string | undefined): GatewayRefusal | null {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return HEADERS_TOO_LARGE;
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return PAYLOAD_TOO_LARGE;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, error: 'The request was not received in time', code: 'request_timeout' };
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    default:
      return { status: 400, error: 'The request is not valid HTTP/1.1', code: 'bad_request' };
  }
}

/** A refusal as raw HTTP/1.1 bytes (a request the parser refused has no response object to write to). */
export function rawRefusal(refusal: GatewayRefusal): string {
  const body = JSON.stringify({ error: refusal.error, code: refusal.code });
  const headers = Object.entries({ ...JSON_HEADERS, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' }).map(([n, v]) => `${n}: ${v}`);
  return [`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}`, ...headers, '', body].join('\r\n');
}

/** The Content-Length a request declares, or undefined (chunked, absent or unreadable). */
function declaredLength(req: IncomingMessage): number | undefined {
  const value = req.headers['content-length'];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** Half-closes the socket (the answer is flushed first), drops what still arrives, then closes it. */
function lingeringClose(socket: Socket): void {
  if (socket.destroyed) return;
  const started = Date.now();
  let lastRead = socket.bytesRead;
  let lastChange = started;
  // bytesRead also counts what the HTTP parser reads natively (no 'data' events reach JS then).
  const timer = setInterval(() => {
    const now = Date.now();
    if (socket.bytesRead !== lastRead) [lastRead, lastChange] = [socket.bytesRead, now];
    if (now - lastChange >= LINGER_IDLE_MS || now - started >= LINGER_TOTAL_MS) socket.destroy();
  }, LINGER_POLL_MS);
  socket.once('close', () => clearInterval(timer));
  socket.resume();
  socket.end();
}

/** Node closes a `Connection: close` socket with destroySoon(), resetting a client still sending: linger instead. */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = () => lingeringClose(socket);
}

/** Answers now, whatever of the body is still coming (dropped), and closes the connection gently. */
function answerNow(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  lingerOnClose(req.socket);
  req.resume();
  res.writeHead(status, { ...headers, Connection: 'close' });
  res.end(body);
}

function refuse(req: IncomingMessage, res: ServerResponse, refusal: GatewayRefusal): void {
  answerNow(req, res, refusal.status, JSON_HEADERS, JSON.stringify({ error: refusal.error, code: refusal.code }));
}

type BodyRead = { kind: 'body'; body: Buffer } | { kind: 'too_large' } | { kind: 'aborted' };

/** The request body, or too_large as soon as it passes Lambda's limit (the rest is then dropped). */
function readBody(req: IncomingMessage): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= LAMBDA_MAX_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData);
      chunks.length = 0;
      resolve({ kind: 'too_large' });
    };
    req.on('data', onData);
    req.on('end', () => resolve({ kind: 'body', body: Buffer.concat(chunks) }));
    req.on('close', () => resolve({ kind: 'aborted' }));
    req.on('error', reject);
  });
}

function writeResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2) {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  if (result.cookies?.length) headers['Set-Cookie'] = result.cookies;
  const body = result.body === undefined ? '' : result.body;
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(result.isBase64Encoded ? Buffer.from(body, 'base64') : body);
}

export type LocalHttpServer = { url: string; stop: () => Promise<void> };

/**
 * The local API Gateway: turns each request into an HTTP API payload 2.0 event, calls the same
 * handler module Lambda runs (routed by the one route table, $default for the rest) and writes the
 * result back. Errors a handler lets escape become API Gateway's own 500 answer. What never reaches
 * a handler (a body past 6 MB, headers past 8 KB, broken HTTP) gets a JSON answer in the spec's
 * error shape (413 payload_too_large, 431 headers_too_large, 400 bad_request), never a reset.
 */
export async function startHttpServer(root: string, port: number, host = '127.0.0.1'): Promise<LocalHttpServer> {
  const route = createRouter(routeList);
  const edge = loadEdgeFunction();
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const sourceIp = req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1';
      // The deployed stack's CloudFront function runs first, as at the edge: its refusals (413, 431) and its headers.
      const passed = passEdge(edge, req, sourceIp);
      if (passed.kind === 'answer') return answerNow(req, res, passed.status, passed.headers, passed.body);
      const declared = declaredLength(req);
      if (declared !== undefined && declared > LAMBDA_MAX_BODY_BYTES) return refuse(req, res, PAYLOAD_TOO_LARGE);
      const read = await readBody(req);
      if (read.kind === 'aborted') return;
      if (read.kind === 'too_large') return refuse(req, res, PAYLOAD_TOO_LARGE);
      const url = req.url ?? '/';
      const method = req.method ?? 'GET';
      const match = route(method, new URL(url, 'http://local').pathname);
      const found = match.kind === 'found' ? match : undefined;
      const event = toHttpApiEvent(
        {
          method,
          url,
          headers: passed.headers,
          body: read.body,
          sourceIp,
          host: req.headers.host ?? host,
        },
        found ? `${found.route.method} ${found.route.path}` : '$default',
        found?.params,
      );
      const modulePath = found ? found.route.handler : fallbackHandler;
      const handler = await loadHandler(root, modulePath);
      // The stack's function serving the route ($default: the Fallback function); its AWS calls are evaluated against its role.
      const functionId = found ? functionIdOf(found.route) : 'Fallback';
      const result = (await runAsFunction(functionId, () =>
        handler(event, lambdaContext(found ? functionId : 'NotFound')),
      )) as APIGatewayProxyStructuredResultV2;
      writeResult(res, result);
    })().catch((err: unknown) => {
      console.error(JSON.stringify({ level: 'ERROR', message: 'local gateway: handler failed', error: err instanceof Error ? err.message : String(err) }));
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ message: 'Internal Server Error' }));
      }
    });
  };
  const server = createServer({ maxHeaderSize: PARSER_MAX_HEADER_BYTES }, handle);
  // Expect: 100-continue: a body declared past the limit is refused before the client sends it.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const passed = passEdge(edge, req, req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1');
    if (passed.kind === 'answer') return answerNow(req, res, passed.status, passed.headers, passed.body);
    const declared = declaredLength(req);
    if (declared !== undefined && declared > LAMBDA_MAX_BODY_BYTES) return refuse(req, res, PAYLOAD_TOO_LARGE);
    res.writeContinue();
    handle(req, res);
  });
  // Requests the parser refuses (headers past MAX_HEADER_BYTES, broken framing): Node's default is an
  // empty 431/400 followed by an immediate destroy; answer in the spec's shape and linger instead.
  const answered = new WeakSet<Socket>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    const refusal = parseErrorRefusal(err.code);
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (refusal === null || !socket.writable || inFlight?.headersSent) return void socket.destroy();
    socket.write(rawRefusal(refusal));
    lingeringClose(socket);
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}`,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { createRouter } from '../../shared/http/route';
import { fallbackHandler, routeList } from '../../shared/http/routes';
import { lambdaContext, toHttpApiEvent } from './apigw-event';
import { loadHandler } from './handlers';

/**
 * Lambda's synchronous invocation payload limit (6 MB): on AWS a bigger request never reaches a
 * handler. Below it, the pipeline's own 1 MB rule answers 413 (shared/http/middleware/json-body.ts).
 */
const GATEWAY_MAX_BODY_BYTES = 6 * 1024 * 1024;
/** Past this the connection is cut instead of reading on (API Gateway's own 10 MB ceiling, doubled). */
const DRAIN_LIMIT_BYTES = 20 * 1024 * 1024;

const PAYLOAD_TOO_LARGE = JSON.stringify({ error: `The request body is larger than ${GATEWAY_MAX_BODY_BYTES} bytes`, code: 'payload_too_large' });

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }) {
  res.writeHead(status, headers);
  res.end(body);
}

/** The request body, or null when it is over the gateway's limit (read to its end and dropped, so the 413 can be sent). */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > DRAIN_LIMIT_BYTES) {
        req.destroy();
        return;
      }
      if (size <= GATEWAY_MAX_BODY_BYTES) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.on('end', () => resolve(size > GATEWAY_MAX_BODY_BYTES ? null : Buffer.concat(chunks)));
    req.on('close', () => resolve(null));
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
 * result back. Errors a handler lets escape become API Gateway's own 500 answer.
 */
export async function startHttpServer(root: string, port: number, host = '127.0.0.1'): Promise<LocalHttpServer> {
  const route = createRouter(routeList);
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      if (body === null) return send(res, 413, PAYLOAD_TOO_LARGE, { 'Content-Type': 'application/json; charset=utf-8', Connection: 'close' });
      const url = req.url ?? '/';
      const method = req.method ?? 'GET';
      const match = route(method, new URL(url, 'http://local').pathname);
      const found = match.kind === 'found' ? match : undefined;
      const event = toHttpApiEvent(
        { method, url, headers: req.headers, body, sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1', host: req.headers.host ?? host },
        found ? `${found.route.method} ${found.route.path}` : '$default',
        found?.params,
      );
      const modulePath = found ? found.route.handler : fallbackHandler;
      const handler = await loadHandler(root, modulePath);
      const result = (await handler(event, lambdaContext(found ? found.route.id : 'NotFound'))) as APIGatewayProxyStructuredResultV2;
      writeResult(res, result);
    })().catch((err: unknown) => {
      console.error(JSON.stringify({ level: 'ERROR', message: 'local gateway: handler failed', error: err instanceof Error ? err.message : String(err) }));
      if (!res.headersSent) send(res, 500, JSON.stringify({ message: 'Internal Server Error' }));
    });
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

/**
 * A minimal webhook receiver for merchants (spec 6.3-6.5): reads the RAW body, checks the
 * Service-Signature header, deduplicates by Service-Event-Id, drops an event older than one already
 * handled for the same object (its `version`: events may arrive in any order, spec 6.5), answers 200
 * at once and handles the event afterwards.
 *
 *   WEBHOOK_SECRET=whsec_... PORT=8443 node_modules/node/bin/node --import tsx events/webhook-receiver.ts
 *
 * Plain HTTP by default (put it behind a TLS proxy); set TLS_CERT_FILE and TLS_KEY_FILE to serve
 * HTTPS directly. The service only delivers to https URLs on port 443 or 8443.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { verifyWebhookSignature } from '../shared/domain/webhook-verify';

export type WebhookEvent = { id: string; type: string; created: number; api_version: string; data: Record<string, unknown> };

const MAX_BODY_BYTES = 1024 * 1024;
const MAX_REMEMBERED_IDS = 10_000;

function answer(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readRawBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => done(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks)));
    req.on('error', fail);
  });
}

/**
 * The object an event is about and the version the change made (issue 29): the invoice, withdraw or
 * order of its data, by reference. Undefined for an event without one (the test ping).
 */
export function versionOf(event: WebhookEvent): { key: string; version: number } | undefined {
  for (const [kind, object] of Object.entries(event.data)) {
    const { reference, version } = (object ?? {}) as { reference?: unknown; version?: unknown };
    if (typeof reference === 'string' && typeof version === 'number') return { key: `${kind}:${reference}`, version };
  }
  return undefined;
}

/**
 * The highest version handled per object: `isNewer` says whether an event moves its object past what was
 * handled (then remembers its version). A receiver that keeps its objects in a database keeps the version
 * beside each one and updates it only WHERE version < the event's (one conditional update).
 */
export function latestVersions(limit = MAX_REMEMBERED_IDS) {
  const latest = new Map<string, number>();
  return {
    isNewer(event: WebhookEvent): boolean {
      const found = versionOf(event);
      if (!found) return true;
      const known = latest.get(found.key);
      if (known !== undefined && known >= found.version) return false;
      latest.delete(found.key);
      latest.set(found.key, found.version);
      if (latest.size > limit) latest.delete(latest.keys().next().value as string);
      return true;
    },
  };
}

function isWebhookEvent(value: unknown): value is WebhookEvent {
  const v = value as Partial<WebhookEvent> | null;
  return typeof v === 'object' && v !== null && typeof v.id === 'string' && typeof v.type === 'string';
}

/**
 * The request handler. `onEvent` runs after the 200 has been sent, once per event id (in this process),
 * and never for an event older than one already handled for the same object (answered `stale`).
 */
export function webhookHandler(secret: string, onEvent: (event: WebhookEvent) => Promise<void> | void) {
  const seen = new Set<string>(); // insertion-ordered: the oldest ids are forgotten first
  const versions = latestVersions();
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') return answer(res, 405, { error: 'method not allowed' });
    const raw = await readRawBody(req);
    if (raw === null) return answer(res, 413, { error: 'body too large' });
    const signature = req.headers['service-signature'];
    if (!verifyWebhookSignature(raw, typeof signature === 'string' ? signature : undefined, secret)) return answer(res, 400, { error: 'invalid signature' });

    let event: unknown;
    try {
      event = JSON.parse(raw.toString('utf8'));
    } catch {
      return answer(res, 400, { error: 'invalid JSON' });
    }
    if (!isWebhookEvent(event)) return answer(res, 400, { error: 'not an event' });
    const headerId = req.headers['service-event-id'];
    const id = typeof headerId === 'string' && headerId !== '' ? headerId : event.id;
    if (seen.has(id)) return answer(res, 200, { received: true, duplicate: true });
    seen.add(id);
    if (seen.size > MAX_REMEMBERED_IDS) seen.delete(seen.values().next().value as string);
    // A retried invoice.paid arriving after invoice.refunded must not move the order back.
    if (!versions.isNewer(event)) return answer(res, 200, { received: true, stale: true });

    answer(res, 200, { received: true });
    setImmediate(() => {
      Promise.resolve(onEvent(event)).catch((error: unknown) => console.error(`event ${id} failed`, error));
    });
  };
}

export function createReceiver(secret: string, onEvent: (event: WebhookEvent) => Promise<void> | void, tls?: { cert: Buffer; key: Buffer }): Server {
  const handle = webhookHandler(secret, onEvent);
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch(() => {
      if (!res.headersSent) answer(res, 500, { error: 'internal error' });
    });
  };
  return tls ? createHttpsServer(tls, listener) : createHttpServer(listener);
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const secret = process.env.WEBHOOK_SECRET ?? '';
  if (!secret.startsWith('whsec_')) {
    console.error('set WEBHOOK_SECRET to the whsec_ secret shown when the webhook was configured');
    process.exit(1);
  }
  const { TLS_CERT_FILE, TLS_KEY_FILE } = process.env;
  const tls = TLS_CERT_FILE && TLS_KEY_FILE ? { cert: readFileSync(TLS_CERT_FILE), key: readFileSync(TLS_KEY_FILE) } : undefined;
  const port = Number(process.env.PORT ?? 8443);
  const host = process.env.HOST ?? '127.0.0.1';
  const server = createReceiver(secret, (event) => console.log(`handled ${event.type} ${event.id}`), tls);
  server.listen(port, host, () => console.log(`webhook receiver on ${tls ? 'https' : 'http'}://${host}:${port}/`));
  process.on('SIGINT', () => server.close(() => process.exit(0)));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

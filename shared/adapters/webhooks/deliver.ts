import { request } from 'node:https';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';

export type DeliveryAttempt = { ok: boolean; status: number | null; error: string | null };

/** Spec 6.5: the receiver must answer within 10 s, of which connecting may take at most 5 s. */
export const POST_TIMEOUT_MS = 10_000;
export const CONNECT_TIMEOUT_MS = 5_000;
export const MAX_RESPONSE_BYTES = 4096;

/** The limits of one attempt; tests shorten them. */
export type PostLimits = { connectTimeoutMs?: number; totalTimeoutMs?: number; maxResponseBytes?: number };

export type PostOptions = {
  url: URL;
  /** The address the URL's host was validated to: the connection goes there and nowhere else. */
  address: string;
  body: string;
  headers: Record<string, string>;
} & PostLimits;

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

/**
 * One webhook POST, pinned to a validated IP (so DNS rebinding cannot move it to another address),
 * with SNI and Host set to the URL's hostname. Connect within 5 s, finish within 10 s, redirects are
 * not followed (a 3xx is a failure), only 2xx succeeds, and at most 4 KB of the answer is read.
 */
export function postWebhook(options: PostOptions): Promise<DeliveryAttempt> {
  const { url, address, body } = options;
  const totalMs = options.totalTimeoutMs ?? POST_TIMEOUT_MS;
  const connectMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const family = isIP(address) === 6 ? 6 : 4;
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    let settled = false;
    const finish = (attempt: DeliveryAttempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      resolve(attempt);
    };
    const req = request({
      method: 'POST',
      protocol: 'https:',
      hostname,
      port: url.port === '' ? 443 : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: { ...options.headers, Host: url.host, 'Content-Length': String(Buffer.byteLength(body)) },
      lookup: pinned,
      servername: isIP(hostname) ? undefined : hostname,
      agent: false,
    });
    const total = setTimeout(() => {
      req.destroy(new Error(`timed out after ${seconds(totalMs)}`));
    }, totalMs);
    req.on('socket', (socket) => {
      const connect = setTimeout(() => req.destroy(new Error(`connect timed out after ${seconds(connectMs)}`)), connectMs);
      socket.once('secureConnect', () => clearTimeout(connect));
      socket.once('close', () => clearTimeout(connect));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > (options.maxResponseBytes ?? MAX_RESPONSE_BYTES)) res.destroy();
      });
      const done = () => {
        if (status >= 200 && status < 300) finish({ ok: true, status, error: null });
        else if (status >= 300 && status < 400) finish({ ok: false, status, error: `redirect not followed (${status})` });
        else finish({ ok: false, status, error: `HTTP ${status}` });
      };
      res.on('end', done);
      res.on('close', done);
      res.on('error', done);
    });
    req.on('error', (err) => finish({ ok: false, status: null, error: err.message.slice(0, 200) }));
    req.end(body);
  });
}

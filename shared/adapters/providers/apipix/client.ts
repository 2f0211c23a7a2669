import { Agent, request as httpsRequest } from 'node:https';
import type { ApiPixCredentials } from '../../secrets/apipix-credentials';
import { ProviderError } from '../../../ports/payment-provider';

/**
 * The API Pix PSP's HTTP channel: mutual TLS (the client certificate and key from Secrets Manager, the
 * PSP's CA when configured) and an OAuth2 client-credentials token, cached until shortly before it
 * expires and fetched again after a 401. JSON in and out; every request has a hard time limit.
 */
export type ApiPixReply = { status: number; body: unknown };

export type ApiPixClient = {
  /** One request to `path` under the API base URL (`/cob/…`), with the bearer token. */
  call(method: 'GET' | 'PUT' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<ApiPixReply>;
};

export type ApiPixClientOptions = {
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  credentials: () => Promise<ApiPixCredentials>;
  timeoutMs: number;
  now?: () => number;
};

/** A token is used until this long before the PSP said it expires. */
const TOKEN_MARGIN_MS = 60_000;

type Token = { value: string; expiresAt: number };
type RawReply = { status: number; text: string };

function send(agent: Agent, url: URL, method: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      { method, agent, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => reject(new ProviderError('The PSP answer was cut off')));
      },
    );
    // A hard limit on the whole exchange (issue 44), not only on silence: a PSP trickling bytes is cut off too.
    const limit = setTimeout(() => req.destroy(new ProviderError(`The PSP did not answer within ${timeoutMs} ms`)), Math.max(1, timeoutMs));
    req.once('close', () => clearTimeout(limit));
    // Never the error's text: a TLS failure names no secret, but keep the channel's details out of answers.
    req.on('error', (err) =>
      reject(err instanceof ProviderError ? err : new ProviderError(`The PSP could not be reached (${(err as NodeJS.ErrnoException).code ?? 'error'})`)),
    );
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function apiPixClient(options: ApiPixClientOptions): ApiPixClient {
  const now = options.now ?? Date.now;
  /**
   * One keep-alive mTLS agent per certificate, key and CA: a renewed secret (read again every few
   * minutes) gets a new agent; the old one is left to its requests in flight.
   */
  let agent: { tls: string; agent: Agent } | undefined;
  /** The credentials as read now, with the agent of their certificate. */
  const channel = async (): Promise<{ credentials: ApiPixCredentials; agent: Agent }> => {
    const c = await options.credentials();
    const tls = `${c.certificate}\n${c.privateKey}\n${c.ca ?? ''}`;
    if (agent?.tls !== tls) {
      agent = { tls, agent: new Agent({ cert: c.certificate, key: c.privateKey, ...(c.ca ? { ca: c.ca } : {}), keepAlive: true, maxSockets: 16 }) };
    }
    return { credentials: c, agent: agent.agent };
  };

  const fetchToken = async (): Promise<Token> => {
    const { agent: tls, credentials } = await channel();
    const basic = Buffer.from(`${options.clientId}:${credentials.clientSecret}`).toString('base64');
    const started = now();
    const reply = await send(
      tls,
      new URL(options.tokenUrl),
      'POST',
      { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      'grant_type=client_credentials',
      options.timeoutMs,
    );
    const body = parseJson(reply.text) as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (reply.status !== 200 || typeof body?.access_token !== 'string') throw new ProviderError(`The PSP refused the token request (HTTP ${reply.status})`);
    const seconds = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 300;
    return { value: body.access_token, expiresAt: started + seconds * 1000 - TOKEN_MARGIN_MS };
  };

  let cached: Token | undefined;
  let inflight: Promise<Token> | undefined;
  /** The cached token while it is fresh (and not refused); otherwise one fetch shared by every caller waiting. */
  const bearer = async (renew: boolean): Promise<string> => {
    if (!renew && cached && cached.expiresAt > now()) return cached.value;
    if (renew) cached = undefined;
    inflight ??= fetchToken().finally(() => {
      inflight = undefined;
    });
    cached = await inflight;
    return cached.value;
  };

  return {
    async call(method, path, body) {
      const url = new URL(`${options.baseUrl}${path}`);
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers = (value: string) => ({
        authorization: `Bearer ${value}`,
        accept: 'application/json',
        ...(payload ? { 'content-type': 'application/json' } : {}),
      });
      // One limit for the whole call (issue 44): the token's fetch, the request, and a retry after a 401 share it, so
      // the call ends within the provider's limit the time budgets count (shared/domain/time-budgets.ts).
      const deadline = now() + options.timeoutMs;
      const left = () => {
        const ms = deadline - now();
        if (ms <= 0) throw new ProviderError(`The PSP did not answer within ${options.timeoutMs} ms`);
        return ms;
      };
      const { agent: tls } = await channel();
      let reply = await send(tls, url, method, headers(await bearer(false)), payload, left());
      // A token the PSP revoked or expired early: one new token, one more try, within what is left.
      if (reply.status === 401) reply = await send(tls, url, method, headers(await bearer(true)), payload, left());
      return { status: reply.status, body: parseJson(reply.text) };
    },
  };
}

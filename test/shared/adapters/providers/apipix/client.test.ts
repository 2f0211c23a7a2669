import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiPixClient, type ApiPixClient } from '../../../../../shared/adapters/providers/apipix/client';
import { ProviderError } from '../../../../../shared/ports/payment-provider';
import type { ApiPixCredentials } from '../../../../../shared/adapters/secrets/apipix-credentials';
import { generateApiPixCertificates, type ApiPixCertificates } from '../../../../support/apipix-certificates';
import { startTestPsp, type TestPsp, type TestPspOptions } from '../../../../support/apipix-psp';

/**
 * The API Pix client against the loopback test PSP (test/support/apipix-psp.ts) behind mutual TLS:
 * its token cache, its one retry after a 401, and its failures (a refused certificate, a PSP that
 * never answers) as ProviderError.
 */

let certificates: ApiPixCertificates;
const started: TestPsp[] = [];

beforeAll(async () => {
  certificates = await generateApiPixCertificates();
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.close()));
});

async function psp(options: Omit<TestPspOptions, 'certificates'> = {}): Promise<TestPsp> {
  const server = await startTestPsp({ certificates, ...options });
  started.push(server);
  return server;
}

function credentials(server: TestPsp, which: 'client' | 'stranger' = 'client'): ApiPixCredentials {
  return {
    clientSecret: server.clientSecret,
    certificate: which === 'client' ? certificates.clientCert : certificates.strangerCert,
    privateKey: which === 'client' ? certificates.clientKey : certificates.strangerKey,
    ca: certificates.ca,
  };
}

function clientFor(server: TestPsp, options: { which?: 'client' | 'stranger'; timeoutMs?: number; secretFetches?: { count: number } } = {}): ApiPixClient {
  const secret = credentials(server, options.which);
  return apiPixClient({
    baseUrl: server.baseUrl,
    tokenUrl: server.tokenUrl,
    clientId: server.clientId,
    credentials: async () => {
      if (options.secretFetches) options.secretFetches.count += 1;
      return secret;
    },
    timeoutMs: options.timeoutMs ?? 5_000,
  });
}

let txidCounter = 0;
function newTxid(): string {
  txidCounter += 1;
  return `clienttest${Date.now().toString(36)}${String(txidCounter).padStart(4, '0')}`.padEnd(32, 'x').slice(0, 32);
}

const cobBody = (server: TestPsp) => ({ calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: server.pixKey, solicitacaoPagador: 'Teste' });

const paths = (server: TestPsp) => server.requests.map((r) => `${r.method} ${r.path} ${r.status}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('apiPixClient', () => {
  it('fetches a token once and reuses it for later calls', async () => {
    const server = await psp();
    const client = clientFor(server);
    const txid = newTxid();
    const created = await client.call('PUT', `/cob/${txid}`, cobBody(server));
    expect(created.status).toBe(201);
    expect((created.body as { txid: string }).txid).toBe(txid);
    const read = await client.call('GET', `/cob/${txid}`);
    expect(read.status).toBe(200);
    expect((read.body as { valor: { original: string } }).valor.original).toBe('10.00');
    await expect(client.call('GET', `/cob/${newTxid()}`)).resolves.toMatchObject({ status: 404 });
    expect(server.tokensIssued()).toBe(1);
    expect(paths(server).filter((p) => p.startsWith('POST /oauth/token'))).toHaveLength(1);
  });

  it('shares one token fetch among concurrent calls', async () => {
    const server = await psp();
    const client = clientFor(server);
    const replies = await Promise.all(Array.from({ length: 5 }, () => client.call('GET', `/cob/${newTxid()}`)));
    expect(replies.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    expect(server.tokensIssued()).toBe(1);
  });

  it('fetches a new token once the one it holds is within 60 s of expiring', async () => {
    const server = await psp({ tokenTtlSeconds: 61 });
    const client = clientFor(server);
    await expect(client.call('GET', `/cob/${newTxid()}`)).resolves.toMatchObject({ status: 404 });
    await expect(client.call('GET', `/cob/${newTxid()}`)).resolves.toMatchObject({ status: 404 });
    expect(server.tokensIssued()).toBe(1);
    await sleep(1_200);
    await expect(client.call('GET', `/cob/${newTxid()}`)).resolves.toMatchObject({ status: 404 });
    expect(server.tokensIssued()).toBe(2);
    // No 401 on the way: the token was renewed before use, not after a refusal.
    expect(server.requests.some((r) => r.status === 401)).toBe(false);
  });

  it('fetches a new token and tries once more after a 401', async () => {
    const server = await psp();
    const client = clientFor(server);
    await client.call('GET', `/cob/${newTxid()}`);
    expect(server.tokensIssued()).toBe(1);
    const txid = newTxid();
    server.fail({ path: /^\/v2\//, times: 1, mode: { status: 401, body: {} } });
    const reply = await client.call('PUT', `/cob/${txid}`, cobBody(server));
    expect(reply.status).toBe(201);
    expect(server.tokensIssued()).toBe(2);
    expect(server.cobs.has(txid)).toBe(true);
    expect(paths(server).slice(-3)).toEqual([`PUT /v2/cob/${txid} 401`, 'POST /oauth/token 200', `PUT /v2/cob/${txid} 201`]);
  });

  it('tries only once more: a second 401 is answered as it is', async () => {
    const server = await psp();
    const client = clientFor(server);
    server.fail({ path: /^\/v2\//, times: 3, mode: { status: 401, body: { title: 'Não autorizado' } } });
    const reply = await client.call('GET', `/cob/${newTxid()}`);
    expect(reply).toEqual({ status: 401, body: { title: 'Não autorizado' } });
    expect(server.requests.filter((r) => r.path.startsWith('/v2/'))).toHaveLength(2);
    expect(server.tokensIssued()).toBe(2);
  });

  it('fails with ProviderError when the PSP refuses the client certificate', async () => {
    const server = await psp();
    const client = clientFor(server, { which: 'stranger' });
    const error = await client.call('GET', `/cob/${newTxid()}`).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).not.toContain('BEGIN');
    expect(server.tokensIssued()).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it('a renewed certificate in the secret is used by the next call (a new TLS agent): the stranger certificate, read again, is refused', async () => {
    const server = await psp();
    let current = credentials(server);
    const client = apiPixClient({
      baseUrl: server.baseUrl,
      tokenUrl: server.tokenUrl,
      clientId: server.clientId,
      credentials: async () => current,
      timeoutMs: 5_000,
    });
    const txid = newTxid();
    expect((await client.call('PUT', `/cob/${txid}`, cobBody(server))).status).toBe(201);
    // The same certificate read again (a new object): the agent and its token are kept.
    current = { ...credentials(server) };
    expect((await client.call('GET', `/cob/${txid}`)).status).toBe(200);
    expect(server.tokensIssued()).toBe(1);
    current = credentials(server, 'stranger');
    await expect(client.call('GET', `/cob/${txid}`)).rejects.toBeInstanceOf(ProviderError);
  });

  it('fails with ProviderError when the token endpoint refuses the client secret', async () => {
    const server = await psp({ clientSecret: 'the-real-secret' });
    const client = apiPixClient({
      baseUrl: server.baseUrl,
      tokenUrl: server.tokenUrl,
      clientId: server.clientId,
      credentials: async () => ({ ...credentials(server), clientSecret: 'a-wrong-secret' }),
      timeoutMs: 5_000,
    });
    const error = await client.call('GET', `/cob/${newTxid()}`).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toContain('HTTP 401');
    expect(server.requests.filter((r) => r.path.startsWith('/v2/'))).toHaveLength(0);
  });

  it('fails with ProviderError within its time limit when the PSP never answers', async () => {
    const server = await psp();
    const client = clientFor(server, { timeoutMs: 400 });
    await client.call('GET', `/cob/${newTxid()}`);
    server.fail({ path: /^\/v2\/cob\//, times: 1, mode: 'timeout' });
    const start = performance.now();
    const error = await client.call('GET', `/cob/${newTxid()}`).then(
      () => undefined,
      (err: unknown) => err,
    );
    const elapsed = performance.now() - start;
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toContain('400 ms');
    expect(elapsed).toBeGreaterThanOrEqual(350);
    expect(elapsed).toBeLessThan(400 + 4_000);
    expect(server.requests.at(-1)?.status).toBe('timeout');
    // The client still works afterwards.
    await expect(client.call('GET', `/cob/${newTxid()}`)).resolves.toMatchObject({ status: 404 });
  });
});

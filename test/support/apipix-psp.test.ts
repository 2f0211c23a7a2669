import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc16ccitt } from '../../shared/domain/pix-brcode';
import { generateApiPixCertificates, type ApiPixCertificates } from './apipix-certificates';
import { startTestPsp, type TestPsp } from './apipix-psp';

type Reply = { status: number; headers: IncomingHttpHeaders; text: string; json: unknown };
type Tls = { cert?: string; key?: string; ca: string };
type CallOptions = { body?: string; headers?: Record<string, string>; tls?: Tls; timeoutMs?: number };

let certificates: ApiPixCertificates;
let psp: TestPsp;
let certificateMs = 0;

/** One request over a fresh TLS connection (no pooling), with the client certificate unless `tls` says otherwise. */
function call(method: string, url: string, options: CallOptions = {}): Promise<Reply> {
  const tls = options.tls ?? { cert: certificates.clientCert, key: certificates.clientKey, ca: certificates.ca };
  const headers = { ...(options.headers ?? {}), ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }) };
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method, headers, agent: false, ...tls }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text === '' ? undefined : (JSON.parse(text) as unknown);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.setTimeout(options.timeoutMs ?? 5_000, () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function tokenRequest(id = psp.clientId, secret = psp.clientSecret, grant = 'client_credentials'): Promise<Reply> {
  return call('POST', psp.tokenUrl, {
    headers: { authorization: basic(id, secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=${grant}`,
  });
}

async function bearer(): Promise<string> {
  const reply = await tokenRequest();
  expect(reply.status).toBe(200);
  return (reply.json as { access_token: string }).access_token;
}

function api(method: string, path: string, token: string, body?: unknown, timeoutMs?: number): Promise<Reply> {
  return call(method, `${psp.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
}

let txidCounter = 0;
/** A fresh 32-character txid. */
function newTxid(): string {
  txidCounter += 1;
  return `psptest${Date.now().toString(36)}${String(txidCounter).padStart(4, '0')}`.padEnd(32, 'x').slice(0, 32);
}

const cobBody = (overrides: Record<string, unknown> = {}) => ({
  calendario: { expiracao: 3600 },
  devedor: { cpf: '12345678909', nome: 'Fulano de Tal' },
  valor: { original: '123.45' },
  chave: psp.pixKey,
  solicitacaoPagador: 'Pedido 42',
  ...overrides,
});

beforeAll(async () => {
  const started = performance.now();
  certificates = await generateApiPixCertificates();
  certificateMs = performance.now() - started;
  psp = await startTestPsp({ certificates, clientId: 'gateway', clientSecret: 's3cret:with:colons', pixKey: 'pix@loja.example' });
});

afterAll(async () => {
  await psp?.close();
});

describe('the API Pix test PSP', () => {
  it('makes its certificates quickly', () => {
    expect(certificateMs).toBeLessThan(5_000);
    for (const pem of [certificates.ca, certificates.serverCert, certificates.clientCert, certificates.strangerCert])
      expect(pem).toContain('BEGIN CERTIFICATE');
    for (const pem of [certificates.serverKey, certificates.clientKey, certificates.strangerKey]) expect(pem).toContain('PRIVATE KEY');
  });

  it('issues client-credentials tokens and refuses wrong credentials or grants', async () => {
    const before = psp.tokensIssued();
    const ok = await tokenRequest();
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'cob.write cob.read pix.read webhook.write webhook.read' });
    expect((ok.json as { access_token: unknown }).access_token).toEqual(expect.any(String));
    expect(psp.tokensIssued()).toBe(before + 1);

    const wrong = await tokenRequest(psp.clientId, 'not-the-secret');
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ error: 'invalid_client' });
    const grant = await tokenRequest(psp.clientId, psp.clientSecret, 'password');
    expect(grant.status).toBe(400);
    expect(grant.json).toMatchObject({ error: 'unsupported_grant_type' });
    expect(psp.tokensIssued()).toBe(before + 1);
  });

  it('refuses the API without a valid bearer token', async () => {
    const reply = await api('GET', `/cob/${newTxid()}`, 'made-up-token');
    expect(reply.status).toBe(401);
    expect(reply.headers['content-type']).toBe('application/problem+json');
    expect(reply.json).toMatchObject({ status: 401, type: expect.stringMatching(/^https:\/\/pix\.bcb\.gov\.br\/api\/v2\/error\//) });
  });

  it('creates a cob with PUT and answers it with GET', async () => {
    const token = await bearer();
    const txid = newTxid();
    const created = await api('PUT', `/cob/${txid}`, token, cobBody());
    expect(created.status).toBe(201);
    const cob = created.json as Record<string, unknown> & { location: string; pixCopiaECola: string; loc: { location: string } };
    expect(cob).toMatchObject({
      calendario: { expiracao: 3600, criacao: expect.any(String) },
      txid,
      revisao: 0,
      loc: { id: expect.any(Number), tipoCob: 'cob' },
      status: 'ATIVA',
      devedor: { cpf: '12345678909', nome: 'Fulano de Tal' },
      valor: { original: '123.45' },
      chave: 'pix@loja.example',
      solicitacaoPagador: 'Pedido 42',
    });
    const port = new URL(psp.baseUrl).port;
    expect(cob.location).toMatch(new RegExp(`^127\\.0\\.0\\.1:${port}/qr/v2/[0-9a-f]{32}$`));
    expect(cob.loc.location).toBe(cob.location);
    // The BR Code carries the location (field 26.25) and a valid CRC.
    expect(cob.pixCopiaECola).toContain(`25${String(cob.location.length).padStart(2, '0')}${cob.location}`);
    expect(cob.pixCopiaECola.slice(-4)).toBe(crc16ccitt(cob.pixCopiaECola.slice(0, -4)));

    const read = await api('GET', `/cob/${txid}`, token);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(cob);
    expect(psp.cobs.get(txid)).toEqual(cob);

    const unknown = await api('GET', `/cob/${newTxid()}`, token);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado', status: 404 });
  });

  it('refuses a txid already in use and a cob with a foreign key, naming the fields', async () => {
    const token = await bearer();
    const txid = newTxid();
    expect((await api('PUT', `/cob/${txid}`, token, cobBody())).status).toBe(201);
    const again = await api('PUT', `/cob/${txid}`, token, cobBody());
    expect(again.status).toBe(400);
    expect(again.headers['content-type']).toBe('application/problem+json');
    expect(again.json).toMatchObject({
      type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida',
      status: 400,
      detail: 'O txid informado já está em uso.',
    });
    expect(again.json).not.toHaveProperty('violacoes');

    const other = newTxid();
    const foreign = await api('PUT', `/cob/${other}`, token, cobBody({ chave: 'someone-else@example.com' }));
    expect(foreign.status).toBe(400);
    expect(foreign.json).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida', title: expect.any(String), status: 400 });
    expect((foreign.json as { violacoes: Array<{ propriedade: string }> }).violacoes.map((v) => v.propriedade)).toEqual(['cob.chave']);
    expect(psp.cobs.has(other)).toBe(false);

    const bad = await api('PUT', '/cob/short', token, cobBody({ valor: { original: '0.00' }, calendario: { expiracao: 0 } }));
    expect(bad.status).toBe(400);
    expect((bad.json as { violacoes: Array<{ propriedade: string }> }).violacoes.map((v) => v.propriedade).sort()).toEqual([
      'cob.calendario.expiracao',
      'cob.valor.original',
      'txid',
    ]);
  });

  it('refuses at the handshake a client without a certificate and one with a certificate of another CA', async () => {
    const served = psp.requests.length;
    // No certificate: OpenSSL's "certificate required" alert. A certificate of another CA: Node drops the connection after the handshake.
    await expect(call('POST', psp.tokenUrl, { tls: { ca: certificates.ca }, body: 'grant_type=client_credentials' })).rejects.toThrow(/certificate required/);
    await expect(
      call('POST', psp.tokenUrl, {
        tls: { cert: certificates.strangerCert, key: certificates.strangerKey, ca: certificates.ca },
        body: 'grant_type=client_credentials',
      }),
    ).rejects.toThrow(/socket hang up|ECONNRESET|unknown ca|certificate/);
    expect(psp.requests.length).toBe(served);
    // The same request with the PSP's client certificate is served (a 401 for the missing credentials).
    expect((await call('POST', psp.tokenUrl, { body: 'grant_type=client_credentials' })).status).toBe(401);
    expect(psp.requests.length).toBe(served + 1);
  });

  it('serves a queued fault to the matching requests only, then answers normally', async () => {
    const token = await bearer();
    const txid = newTxid();
    psp.fail({ method: 'PUT', path: /^\/v2\/cob\//, times: 1, mode: 'error500' });
    const read = await api('GET', `/cob/${txid}`, token);
    expect(read.status).toBe(404); // a GET does not match the fault
    const failed = await api('PUT', `/cob/${txid}`, token, cobBody());
    expect(failed.status).toBe(500);
    expect(failed.json).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel', status: 500 });
    expect(psp.cobs.has(txid)).toBe(false);
    const retried = await api('PUT', `/cob/${txid}`, token, cobBody());
    expect(retried.status).toBe(201);
    expect(psp.requests.slice(-3).map((r) => [r.method, r.status])).toEqual([
      ['GET', 404],
      ['PUT', 500],
      ['PUT', 201],
    ]);

    psp.fail({ path: /^\/oauth\/token$/, times: 1, mode: { status: 503, body: { error: 'temporarily_unavailable' } } });
    const faultedToken = await tokenRequest();
    expect(faultedToken.status).toBe(503);
    expect(faultedToken.json).toEqual({ error: 'temporarily_unavailable' });

    psp.fail({ method: 'GET', times: 1, mode: 'timeout' });
    await expect(api('GET', `/cob/${txid}`, token, undefined, 300)).rejects.toThrow('client timeout');
    expect(psp.requests.at(-1)).toEqual({ method: 'GET', path: `/v2/cob/${txid}`, status: 'timeout' });
    expect((await api('GET', `/cob/${txid}`, token)).status).toBe(200);
  });

  it('shows a paid cob CONCLUIDA with its pix, refunds inside the pix, and a removed one', async () => {
    const token = await bearer();
    const txid = newTxid();
    expect((await api('PUT', `/cob/${txid}`, token, cobBody())).status).toBe(201);
    const payment = psp.pay(txid);
    expect(payment.endToEndId).toMatch(/^E[0-9A-Za-z]{31}$/);
    psp.refund(txid, { valor: '23.45' });

    const read = await api('GET', `/cob/${txid}`, token);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({
      status: 'CONCLUIDA',
      pix: [
        {
          endToEndId: payment.endToEndId,
          txid,
          valor: '123.45',
          horario: expect.any(String),
          devolucoes: [{ valor: '23.45', status: 'DEVOLVIDO', rtrId: expect.stringMatching(/^D[0-9A-Za-z]{31}$/) }],
        },
      ],
    });
    expect(() => psp.pay(txid)).toThrow();

    const expired = newTxid();
    expect((await api('PUT', `/cob/${expired}`, token, cobBody())).status).toBe(201);
    psp.remove(expired);
    expect((await api('GET', `/cob/${expired}`, token)).json).toMatchObject({ status: 'REMOVIDA_PELO_PSP' });
  });

  it('registers a webhook and notifies it at <webhookUrl>/pix', async () => {
    const received: Array<{ method: string; url: string; contentType: string | undefined; body: string }> = [];
    const receiver = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    try {
      const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/apipix`;
      const token = await bearer();
      await expect(psp.notify([])).rejects.toThrow();

      const refused = await api('PUT', `/webhook/${encodeURIComponent('other@example.com')}`, token, { webhookUrl });
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/WebhookOperacaoInvalida' });
      expect((await api('GET', `/webhook/${encodeURIComponent(psp.pixKey)}`, token)).status).toBe(404);

      const put = await api('PUT', `/webhook/${encodeURIComponent(psp.pixKey)}`, token, { webhookUrl });
      expect(put.status).toBe(204);
      expect(psp.webhooks.get(psp.pixKey)).toBe(webhookUrl);
      const got = await api('GET', `/webhook/${encodeURIComponent(psp.pixKey)}`, token);
      expect(got.status).toBe(200);
      expect(got.json).toMatchObject({ webhookUrl, chave: psp.pixKey, criacao: expect.any(String) });

      const txid = newTxid();
      expect((await api('PUT', `/cob/${txid}`, token, cobBody())).status).toBe(201);
      const payment = psp.pay(txid, { valor: '123.45' });
      const answer = await psp.notify([payment]);
      expect(answer).toEqual({ status: 200, body: 'ok' });
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ method: 'POST', url: '/hooks/apipix/pix', contentType: 'application/json' });
      const body = JSON.parse(received[0]?.body ?? '') as { pix: Array<Record<string, unknown>> };
      expect(body.pix).toHaveLength(1);
      expect(body.pix[0]).toMatchObject({ endToEndId: payment.endToEndId, txid, valor: '123.45', horario: payment.horario });
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('lists the Pix received in a window, oldest first, paged from 0: charges paid and Pix that paid none', async () => {
    const token = await bearer();
    const base = Date.parse('2031-03-04T10:00:00.000Z');
    const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
    const first = newTxid();
    const second = newTxid();
    expect((await api('PUT', `/cob/${first}`, token, cobBody())).status).toBe(201);
    expect((await api('PUT', `/cob/${second}`, token, cobBody({ valor: { original: '10.00' } }))).status).toBe(201);
    const paidLater = psp.pay(first, { horario: at(20) });
    const paidEarlier = psp.pay(second, { horario: at(10) });
    const stray = psp.receive({ valor: '7.77', horario: at(15) });
    psp.receive({ valor: '1.00', horario: at(90) });
    const window = (page: number, size: number) =>
      `/pix?inicio=${encodeURIComponent(at(0))}&fim=${encodeURIComponent(at(30))}&paginacao.paginaAtual=${page}&paginacao.itensPorPagina=${size}`;
    const all = await api('GET', window(0, 100), token);
    expect(all.status).toBe(200);
    const body = all.json as { parametros: { paginacao: Record<string, number> }; pix: Array<Record<string, unknown>> };
    expect(body.parametros.paginacao).toEqual({ paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 3 });
    expect(body.pix.map((p) => p.endToEndId)).toEqual([paidEarlier.endToEndId, stray.endToEndId, paidLater.endToEndId]);
    expect(body.pix[0]).toMatchObject({ txid: second, valor: '10.00' });
    expect(body.pix[1]).not.toHaveProperty('txid');
    const pageTwo = await api('GET', window(1, 2), token);
    expect((pageTwo.json as typeof body).parametros.paginacao).toMatchObject({ paginaAtual: 1, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 });
    expect((pageTwo.json as typeof body).pix.map((p) => p.endToEndId)).toEqual([paidLater.endToEndId]);
    expect((await api('GET', '/pix?inicio=yesterday', token)).status).toBe(400);
  });

  it('answers 404 problems for what it does not serve', async () => {
    const token = await bearer();
    const reply = await api('GET', '/pix/E1234/devolucao/D1', token);
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/NaoEncontrado', status: 404 });
  });
});

describe('the API Pix test PSP with short-lived tokens', () => {
  it('refuses an expired token', async () => {
    const shortLived = await startTestPsp({ certificates, tokenTtlSeconds: 1 });
    try {
      const reply = await call('POST', shortLived.tokenUrl, {
        headers: { authorization: basic(shortLived.clientId, shortLived.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      });
      const token = (reply.json as { access_token: string; expires_in: number }).access_token;
      expect((reply.json as { expires_in: number }).expires_in).toBe(1);
      const url = `${shortLived.baseUrl}/cob/${newTxid()}`;
      expect((await call('GET', url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await call('GET', url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    } finally {
      await shortLived.close();
    }
  });
});

import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { buildDynamicBrCode } from '../../shared/pix/brcode';
import type { ApiPixCertificates } from './apipix-certificates';

/**
 * A test PSP speaking the subset of the Central Bank's API Pix v2 (github.com/bacen/pix-api, openapi.yaml)
 * the gateway uses: an OAuth2 client-credentials token endpoint, PUT/GET /cob/{txid} and PUT/GET
 * /webhook/{chave}, behind mutual TLS, with RFC 7807 problem details as the standard's. Payments,
 * refunds, expiries and webhook notifications are driven by the test; faults can be queued.
 */

export type TestPspOptions = { certificates: ApiPixCertificates; clientId?: string; clientSecret?: string; pixKey?: string; tokenTtlSeconds?: number };

export type PspFault = { method?: string; path?: RegExp; times: number; mode: 'error500' | 'timeout' | { status: number; body: unknown } };

export type PspDevolucao = {
  id: string;
  rtrId: string;
  valor: string;
  horario: { solicitacao: string; liquidacao?: string };
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
};

export type PspPixPayment = { endToEndId: string; txid: string; valor: string; horario: string; infoPagador?: string; devolucoes?: PspDevolucao[] };

export type TestPsp = {
  /** `https://127.0.0.1:${port}/v2`: PUT/GET `${baseUrl}/cob/{txid}`, PUT/GET `${baseUrl}/webhook/{chave}`. */
  baseUrl: string;
  /** `https://127.0.0.1:${port}/oauth/token` */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  pixKey: string;
  /** The stored cobs by txid: the JSON the GET answers (live objects). */
  cobs: ReadonlyMap<string, unknown>;
  /** webhookUrl by chave. */
  webhooks: ReadonlyMap<string, string>;
  tokensIssued(): number;
  /** Every request served, in order (path without query); 'timeout' for those held by a fault. */
  requests: ReadonlyArray<{ method: string; path: string; status: number | 'timeout' }>;
  /** The next `times` requests matching method/path get the fault (queued, first match wins). */
  fail(fault: PspFault): void;
  /** Marks the ATIVA cob CONCLUIDA with one pix (default valor: the cob's valor.original). Does not notify. */
  pay(txid: string, options?: { valor?: string; endToEndId?: string; horario?: string }): PspPixPayment;
  /** Adds a devolucao to the cob's (first) pix: default valor what is left to return, default status DEVOLVIDO. */
  refund(txid: string, options?: { valor?: string; status?: 'DEVOLVIDO' | 'EM_PROCESSAMENTO' }): void;
  /** Status REMOVIDA_PELO_PSP (an expired charge). */
  remove(txid: string): void;
  /** POSTs {"pix":[...]} to the webhookUrl registered for chave (default pixKey) + "/pix"; throws if none is registered. */
  notify(payments: PspPixPayment[], chave?: string): Promise<{ status: number; body: string }>;
  /** Stops the server; also releases (drops) requests held by 'timeout' faults. */
  close(): Promise<void>;
};

type CobStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

type StoredCob = {
  calendario: { criacao: string; expiracao: number };
  txid: string;
  revisao: number;
  loc: { id: number; location: string; tipoCob: 'cob'; criacao: string };
  location: string;
  status: CobStatus;
  devedor?: { cpf: string; nome: string } | { cnpj: string; nome: string };
  valor: { original: string };
  chave: string;
  solicitacaoPagador?: string;
  pixCopiaECola: string;
  pix?: Array<PspPixPayment & { chave: string }>;
};

type Violacao = { razao: string; propriedade: string };

type Reply = { status: number; body?: unknown; contentType?: string } | 'hold';

type QueuedFault = PspFault & { left: number };

const PROBLEM_BASE = 'https://pix.bcb.gov.br/api/v2/error/';
const SCOPE = 'cob.write cob.read webhook.write webhook.read';
const TXID = /^[a-zA-Z0-9]{26,35}$/;
const MONEY = /^\d{1,10}\.\d{2}$/;
const CPF = /^\d{11}$/;
const CNPJ = /^[0-9A-Z]{14}$/;
/** Calendario.expiracao when the request has none (the standard's default). */
const DEFAULT_EXPIRACAO = 86_400;
const MAX_BODY = 1_000_000;
/** An ISPB for the PSP's end-to-end and return identifiers. */
const ISPB = '99999008';

const problem = (status: number, name: string, title: string, detail: string, violacoes?: Violacao[]): Reply => ({
  status,
  contentType: 'application/problem+json',
  body: { type: PROBLEM_BASE + name, title, status, detail, ...(violacoes && violacoes.length > 0 ? { violacoes } : {}) },
});

const notFound = (): Reply => problem(404, 'NaoEncontrado', 'Não Encontrado', 'Entidade não encontrada.');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function alphanumeric(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(length), (b) => alphabet[b % alphabet.length]).join('');
}

/** The identifiers of the SPI: letter + ISPB + yyyyMMddHHmm (UTC) + 11 alphanumerics (32 in all). */
function spiId(letter: 'E' | 'D'): string {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 12);
  return `${letter}${ISPB}${stamp}${alphanumeric(11)}`;
}

function cents(money: string): number {
  const [units = '0', fraction = '00'] = money.split('.');
  return Number(units) * 100 + Number(fraction);
}

function money(amountInCents: number): string {
  return `${Math.floor(amountInCents / 100)}.${String(amountInCents % 100).padStart(2, '0')}`;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) req.destroy(new Error('body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function validateCob(txid: string, body: unknown, pixKey: string): Violacao[] {
  const violacoes: Violacao[] = [];
  if (!TXID.test(txid)) violacoes.push({ razao: 'O campo txid não respeita o _schema_.', propriedade: 'txid' });
  if (!isRecord(body)) {
    violacoes.push({ razao: 'O corpo da requisição não respeita o _schema_.', propriedade: 'cob' });
    return violacoes;
  }
  const { calendario, devedor, valor, chave, solicitacaoPagador } = body;
  if (!isRecord(calendario)) {
    violacoes.push({ razao: 'O objeto cob.calendario não respeita o _schema_.', propriedade: 'cob.calendario' });
  } else if (calendario.expiracao !== undefined) {
    const expiracao = calendario.expiracao;
    if (typeof expiracao !== 'number' || !Number.isInteger(expiracao) || expiracao <= 0 || expiracao > 2_147_483_647) {
      violacoes.push({ razao: 'O campo cob.calendario.expiracao é igual ou menor que zero.', propriedade: 'cob.calendario.expiracao' });
    }
  }
  if (devedor !== undefined) {
    const ok =
      isRecord(devedor) &&
      typeof devedor.nome === 'string' &&
      devedor.nome.length > 0 &&
      devedor.nome.length <= 200 &&
      (typeof devedor.cpf === 'string') !== (typeof devedor.cnpj === 'string') &&
      (typeof devedor.cpf === 'string' ? CPF.test(devedor.cpf) : typeof devedor.cnpj === 'string' && CNPJ.test(devedor.cnpj));
    if (!ok) violacoes.push({ razao: 'O objeto cob.devedor não respeita o _schema_.', propriedade: 'cob.devedor' });
  }
  const original = isRecord(valor) ? valor.original : undefined;
  if (typeof original !== 'string' || !MONEY.test(original)) {
    violacoes.push({ razao: 'O campo cob.valor.original não respeita o _schema_.', propriedade: 'cob.valor.original' });
  } else if (cents(original) === 0) {
    violacoes.push({ razao: 'O campo cob.valor.original é zero.', propriedade: 'cob.valor.original' });
  }
  if (typeof chave !== 'string' || chave.length === 0 || chave.length > 77) {
    violacoes.push({ razao: 'O campo cob.chave não respeita o _schema_.', propriedade: 'cob.chave' });
  } else if (chave !== pixKey) {
    violacoes.push({ razao: 'O campo cob.chave corresponde a uma conta que não pertence a este usuário recebedor.', propriedade: 'cob.chave' });
  }
  if (solicitacaoPagador !== undefined && (typeof solicitacaoPagador !== 'string' || solicitacaoPagador.length > 140)) {
    violacoes.push({ razao: 'O campo solicitacaoPagador não respeita o _schema_.', propriedade: 'cob.solicitacaoPagador' });
  }
  return violacoes;
}

function isWebUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

export async function startTestPsp(options: TestPspOptions): Promise<TestPsp> {
  const clientId = options.clientId ?? 'apipix-test-client';
  const clientSecret = options.clientSecret ?? 'apipix-test-secret';
  const pixKey = options.pixKey ?? '7d9f0335-8dcc-4054-9bf9-0dbd61d36906';
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 3600;

  const cobs = new Map<string, StoredCob>();
  const webhooks = new Map<string, { webhookUrl: string; criacao: string }>();
  const webhookUrls = new Map<string, string>();
  const tokens = new Map<string, number>(); // token → expiry (epoch ms)
  const requests: Array<{ method: string; path: string; status: number | 'timeout' }> = [];
  const faults: QueuedFault[] = [];
  const held = new Set<ServerResponse>();
  let issued = 0;
  let nextLocId = 1;
  let nextDevolucao = 1;
  let port = 0;

  const takeFault = (method: string, path: string): QueuedFault | undefined => {
    const index = faults.findIndex((f) => {
      if (f.method !== undefined && f.method.toUpperCase() !== method) return false;
      if (f.path !== undefined) {
        f.path.lastIndex = 0;
        if (!f.path.test(path)) return false;
      }
      return true;
    });
    const fault = faults[index];
    if (!fault) return undefined;
    fault.left -= 1;
    if (fault.left <= 0) faults.splice(index, 1);
    return fault;
  };

  const issueToken = (req: IncomingMessage, body: string): Reply => {
    const header = req.headers.authorization ?? '';
    const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
    const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const id = colon >= 0 ? decoded.slice(0, colon) : '';
    const secret = colon >= 0 ? decoded.slice(colon + 1) : '';
    if (colon < 0 || !safeEqual(id, clientId) || !safeEqual(secret, clientSecret)) {
      return { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed.' } };
    }
    const grant = new URLSearchParams(body).get('grant_type');
    if (grant !== 'client_credentials') return { status: 400, body: { error: 'unsupported_grant_type' } };
    const token = randomBytes(32).toString('base64url');
    tokens.set(token, Date.now() + tokenTtlSeconds * 1000);
    issued += 1;
    return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: tokenTtlSeconds, scope: SCOPE } };
  };

  const authorized = (req: IncomingMessage): boolean => {
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const expiry = match?.[1] ? tokens.get(match[1]) : undefined;
    return expiry !== undefined && expiry > Date.now();
  };

  const putCob = (txid: string, body: unknown): Reply => {
    const violacoes = validateCob(txid, body, pixKey);
    const detail = 'A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o _schema_ ou está semanticamente errada.';
    if (violacoes.length > 0) return problem(400, 'CobOperacaoInvalida', 'Cobrança inválida.', detail, violacoes);
    if (cobs.has(txid)) {
      // As real PSPs answer: a detail and no violacoes (the request itself is well formed).
      return problem(400, 'CobOperacaoInvalida', 'Cobrança inválida.', 'O txid informado já está em uso.');
    }
    const request = body as Record<string, unknown> & { calendario: Record<string, unknown>; valor: { original: string }; chave: string };
    const criacao = new Date().toISOString();
    const location = `127.0.0.1:${port}/qr/v2/${randomBytes(16).toString('hex')}`;
    const devedor = isRecord(request.devedor)
      ? typeof request.devedor.cpf === 'string'
        ? { cpf: request.devedor.cpf, nome: String(request.devedor.nome) }
        : { cnpj: String(request.devedor.cnpj), nome: String(request.devedor.nome) }
      : undefined;
    const cob: StoredCob = {
      calendario: { criacao, expiracao: typeof request.calendario.expiracao === 'number' ? request.calendario.expiracao : DEFAULT_EXPIRACAO },
      txid,
      revisao: 0,
      loc: { id: nextLocId++, location, tipoCob: 'cob', criacao },
      location,
      status: 'ATIVA',
      ...(devedor ? { devedor } : {}),
      valor: { original: request.valor.original },
      chave: request.chave,
      ...(typeof request.solicitacaoPagador === 'string' ? { solicitacaoPagador: request.solicitacaoPagador } : {}),
      pixCopiaECola: buildDynamicBrCode({ location, merchantName: 'Loja de Teste', merchantCity: 'Sao Paulo' }),
    };
    cobs.set(txid, cob);
    return { status: 201, body: cob };
  };

  const getCob = (txid: string): Reply => {
    const cob = cobs.get(txid);
    return cob ? { status: 200, body: cob } : problem(404, 'CobNaoEncontrado', 'Cobrança não encontrada.', 'Cobrança não encontrada para o txid informado.');
  };

  const putWebhook = (chave: string, body: unknown): Reply => {
    const violacoes: Violacao[] = [];
    if (chave !== pixKey) {
      violacoes.push({ razao: 'O parâmetro chave não corresponde a uma chave DICT pertencente a este usuário recebedor.', propriedade: 'chave' });
    }
    const webhookUrl = isRecord(body) ? body.webhookUrl : undefined;
    if (!isWebUrl(webhookUrl)) violacoes.push({ razao: 'Campo webhook.webhookUrl não respeita o _schema_.', propriedade: 'webhook.webhookUrl' });
    if (violacoes.length > 0) {
      const detail = 'A presente requisição busca criar um webhook sem respeitar o _schema_ ou, ainda, com sentido semanticamente inválido.';
      return problem(400, 'WebhookOperacaoInvalida', 'Webhook inválido.', detail, violacoes);
    }
    webhooks.set(chave, { webhookUrl: webhookUrl as string, criacao: new Date().toISOString() });
    webhookUrls.set(chave, webhookUrl as string);
    return { status: 204 };
  };

  const getWebhook = (chave: string): Reply => {
    const webhook = webhooks.get(chave);
    if (!webhook) return problem(404, 'WebhookNaoEncontrado', 'Webhook não encontrado.', 'O webhook denotado por {chave} não encontra-se estabelecido.');
    return { status: 200, body: { webhookUrl: webhook.webhookUrl, chave, criacao: webhook.criacao } };
  };

  const route = (req: IncomingMessage, method: string, path: string, text: string): Reply => {
    if (path === '/oauth/token') return method === 'POST' ? issueToken(req, text) : notFound();
    if (!path.startsWith('/v2/')) return notFound();
    if (!authorized(req)) return problem(401, 'AcessoNegado', 'Não autorizado', 'Token de acesso ausente, inválido ou expirado.');
    const segments = path.slice('/v2/'.length).split('/');
    if (segments.length !== 2) return notFound();
    const [resource = '', raw = ''] = segments;
    let id: string;
    try {
      id = decodeURIComponent(raw);
    } catch {
      return notFound();
    }
    if (id === '') return notFound();
    if (resource === 'cob' && method === 'PUT') return putCob(id, text.trim() === '' ? undefined : parseJson(text));
    if (resource === 'cob' && method === 'GET') return getCob(id);
    if (resource === 'webhook' && method === 'PUT') return putWebhook(id, parseJson(text));
    if (resource === 'webhook' && method === 'GET') return getWebhook(id);
    return notFound();
  };

  const faultReply = (fault: PspFault): Reply => {
    if (fault.mode === 'timeout') return 'hold';
    if (fault.mode === 'error500') {
      return problem(
        500,
        'ServicoIndisponivel',
        'Serviço Indisponível',
        'Serviço não está disponível no momento. Serviço solicitado pode estar em manutenção ou fora da janela de funcionamento.',
      );
    }
    return { status: fault.mode.status, body: fault.mode.body };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    let text: string;
    try {
      text = await readBody(req);
    } catch {
      res.destroy();
      return;
    }
    const fault = takeFault(method, path);
    const reply = fault ? faultReply(fault) : route(req, method, path, text);
    if (reply === 'hold') {
      requests.push({ method, path, status: 'timeout' });
      held.add(res);
      res.on('close', () => held.delete(res));
      return;
    }
    requests.push({ method, path, status: reply.status });
    if (reply.body === undefined) {
      res.writeHead(reply.status);
      res.end();
      return;
    }
    const json = JSON.stringify(reply.body);
    res.writeHead(reply.status, {
      'content-type': reply.contentType ?? 'application/json',
      'content-length': Buffer.byteLength(json),
      'cache-control': 'no-store',
    });
    res.end(json);
  };

  const { certificates } = options;
  const server: Server = createServer(
    { key: certificates.serverKey, cert: certificates.serverCert, ca: [certificates.ca], requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      handle(req, res).catch(() => res.destroy());
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  const cobOf = (txid: string): StoredCob => {
    const cob = cobs.get(txid);
    if (!cob) throw new Error(`The test PSP has no cob with txid ${txid}`);
    return cob;
  };

  let closed: Promise<void> | undefined;

  return {
    baseUrl: `https://127.0.0.1:${port}/v2`,
    tokenUrl: `https://127.0.0.1:${port}/oauth/token`,
    clientId,
    clientSecret,
    pixKey,
    cobs,
    webhooks: webhookUrls,
    tokensIssued: () => issued,
    requests,
    fail(fault) {
      if (!Number.isInteger(fault.times) || fault.times <= 0) throw new Error('A fault needs a positive integer `times`');
      faults.push({ ...fault, left: fault.times });
    },
    pay(txid, payOptions = {}) {
      const cob = cobOf(txid);
      if (cob.status !== 'ATIVA') throw new Error(`The cob ${txid} is ${cob.status}, not ATIVA`);
      const valor = payOptions.valor ?? cob.valor.original;
      if (!MONEY.test(valor)) throw new Error(`Not an amount: ${valor}`);
      const payment: PspPixPayment & { chave: string } = {
        endToEndId: payOptions.endToEndId ?? spiId('E'),
        txid,
        valor,
        chave: cob.chave,
        horario: payOptions.horario ?? new Date().toISOString(),
      };
      cob.pix = [payment];
      cob.status = 'CONCLUIDA';
      return payment;
    },
    refund(txid, refundOptions = {}) {
      const pix = cobOf(txid).pix?.[0];
      if (!pix) throw new Error(`The cob ${txid} has no pix to refund`);
      const devolucoes = (pix.devolucoes ??= []);
      const returned = devolucoes.filter((d) => d.status !== 'NAO_REALIZADO').reduce((sum, d) => sum + cents(d.valor), 0);
      const valor = refundOptions.valor ?? money(cents(pix.valor) - returned);
      if (!MONEY.test(valor) || cents(valor) === 0) throw new Error(`Not a refundable amount: ${valor}`);
      if (returned + cents(valor) > cents(pix.valor)) throw new Error(`Refunding ${valor} would exceed the pix of ${pix.valor}`);
      const status = refundOptions.status ?? 'DEVOLVIDO';
      const now = new Date().toISOString();
      devolucoes.push({
        id: `devolucao${nextDevolucao++}`,
        rtrId: spiId('D'),
        valor,
        horario: status === 'DEVOLVIDO' ? { solicitacao: now, liquidacao: now } : { solicitacao: now },
        status,
      });
    },
    remove(txid) {
      cobOf(txid).status = 'REMOVIDA_PELO_PSP';
    },
    async notify(payments, chave = pixKey) {
      const webhookUrl = webhookUrls.get(chave);
      if (webhookUrl === undefined) throw new Error(`No webhook is registered for the key ${chave}`);
      // The standard's callback is "{webhookUrl}/pix": a plain suffix, as real PSPs append it.
      const response = await fetch(`${webhookUrl}/pix`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pix: payments }),
        signal: AbortSignal.timeout(10_000),
      });
      return { status: response.status, body: await response.text() };
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        held.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

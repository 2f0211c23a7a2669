import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { brazilDate } from '../../shared/domain/brazil-dates';
import { buildDynamicBrCode } from '../../shared/domain/pix-brcode';
import type { ApiPixCertificates } from './apipix-certificates';
import { apiPixClient, type ApiPixClient } from '../../shared/adapters/providers/apipix/client';

/**
 * A test PSP speaking the subset of the Central Bank's API Pix v2 (github.com/bacen/pix-api, openapi.yaml)
 * the gateway uses: an OAuth2 client-credentials token endpoint, PUT/PATCH/GET /cob/{txid}, PUT/PATCH/GET
 * /cobv/{txid} (due-date charges), GET /pix (the Pix received, paged) and PUT/GET /webhook/{chave}, behind mutual TLS, with RFC 7807 problem
 * details as the standard's. /cobv bodies and PATCH /cob bodies are validated against the standard's own
 * schemas (test/fixtures/apipix/cobv-schemas.json, cob-schemas.json). Payments, refunds, expiries and webhook notifications are
 * driven by the test; faults can be queued.
 */

export type TestPspOptions = { certificates: ApiPixCertificates; clientId?: string; clientSecret?: string; pixKey?: string; tokenTtlSeconds?: number };

/**
 * 'timeout': the request is held unserved (nothing happens); 'lost': it is served (a charge is created)
 * but its answer is held, as an answer lost on the way back; both show as 'timeout' in `requests`.
 */
export type PspFault = { method?: string; path?: RegExp; times: number; mode: 'error500' | 'timeout' | 'lost' | { status: number; body: unknown } };

export type PspDevolucao = {
  id: string;
  rtrId: string;
  valor: string;
  horario: { solicitacao: string; liquidacao?: string };
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
};

export type PspPixPayment = { endToEndId: string; txid?: string; valor: string; horario: string; infoPagador?: string; devolucoes?: PspDevolucao[] };

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
  /** The stored cobvs (due-date charges) by txid: the JSON GET /cobv answers (live objects). A txid is a cob's or a cobv's, never both. */
  cobvs: ReadonlyMap<string, unknown>;
  /** webhookUrl by chave. */
  webhooks: ReadonlyMap<string, string>;
  tokensIssued(): number;
  /** Every request served, in order (path without query); 'timeout' for those held by a fault. */
  requests: ReadonlyArray<{ method: string; path: string; status: number | 'timeout' }>;
  /** The bodies of the API's requests that have one (under /v2, faulted ones included), parsed, in order; undefined when not JSON. */
  requestBodies: ReadonlyArray<{ method: string; path: string; body: unknown }>;
  /** The next `times` requests matching method/path get the fault (queued, first match wins). */
  fail(fault: PspFault): void;
  /**
   * Marks the ATIVA cob or cobv CONCLUIDA with one pix (default valor: its valor.original; a cobv paid
   * late carries more: its fine and interest). Does not notify.
   */
  pay(txid: string, options?: { valor?: string; endToEndId?: string; horario?: string }): PspPixPayment;
  /**
   * A Pix received on the key that paid no charge of the PSP's (no txid, or a txid it does not know):
   * listed by GET /pix only. Does not notify.
   */
  receive(options: { valor: string; txid?: string; endToEndId?: string; horario?: string }): PspPixPayment;
  /** Adds a devolucao to the cob's or cobv's (first) pix: default valor what is left to return, default status DEVOLVIDO. */
  refund(txid: string, options?: { valor?: string; status?: 'DEVOLVIDO' | 'EM_PROCESSAMENTO' }): void;
  /** Status REMOVIDA_PELO_PSP (an expired charge), cob or cobv. */
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
  pix?: PspPix[];
};

type PspPix = PspPixPayment & { chave: string };

/** A cobv as stored and answered (CobVCompleta): the request's devedor and valor echoed as sent. */
type StoredCobv = {
  calendario: { criacao: string; dataDeVencimento: string; validadeAposVencimento: number };
  txid: string;
  revisao: number;
  loc: { id: number; location: string; tipoCob: 'cobv'; criacao: string; txid: string };
  location: string;
  status: CobStatus;
  devedor: Record<string, unknown>;
  recebedor: typeof RECEBEDOR;
  valor: Record<string, unknown> & { original: string };
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: unknown;
  pixCopiaECola: string;
  pix?: PspPix[];
};

/** What pay, refund and remove need of a charge, cob or cobv. */
type Payable = { status: CobStatus; valor: { original: string }; chave: string; pix?: PspPix[] };

type Violacao = { razao: string; propriedade: string };

type Reply = { status: number; body?: unknown; contentType?: string } | 'hold';

type QueuedFault = PspFault & { left: number };

const PROBLEM_BASE = 'https://pix.bcb.gov.br/api/v2/error/';
const SCOPE = 'cob.write cob.read pix.read webhook.write webhook.read';
const TXID = /^[a-zA-Z0-9]{26,35}$/;
const MONEY = /^\d{1,10}\.\d{2}$/;
const CPF = /^\d{11}$/;
const CNPJ = /^[0-9A-Z]{14}$/;
/** Calendario.expiracao when the request has none (the standard's default). */
const DEFAULT_EXPIRACAO = 86_400;
/** Calendario.validadeAposVencimento of a cobv when the request has none (the standard's default). */
const DEFAULT_VALIDADE_APOS_VENCIMENTO = 30;
const MAX_BODY = 1_000_000;
/** An ISPB for the PSP's end-to-end and return identifiers. */
const ISPB = '99999008';
/** The receiving user every cobv names (CobVGerada requires recebedor, with its address). */
const RECEBEDOR = {
  cnpj: '11222333000181',
  nome: 'Loja de Teste Ltda',
  logradouro: 'Rua de Teste, 100',
  cidade: 'Sao Paulo',
  uf: 'SP',
  cep: '01310100',
} as const;

type CobvSchemas = { request: { put: object; patch: object } };
type CobSchemas = { request: { patch: object } };

/** The PATCH /cob body validator (the standard's CobRevisada: test/fixtures/apipix/cob-schemas.json), compiled once. */
let cobPatchValidator: ValidateFunction | undefined;

function cobPatchRequestValidator(): ValidateFunction {
  if (!cobPatchValidator) {
    const schemas = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'apipix', 'cob-schemas.json'), 'utf8')) as CobSchemas;
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    cobPatchValidator = ajv.compile(schemas.request.patch);
  }
  return cobPatchValidator;
}

/** PUT and PATCH /cobv body validators, compiled once from the standard's schemas (the fixture says which commit). */
let cobvValidators: { put: ValidateFunction; patch: ValidateFunction } | undefined;

function cobvRequestValidators(): { put: ValidateFunction; patch: ValidateFunction } {
  if (!cobvValidators) {
    const schemas = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'apipix', 'cobv-schemas.json'), 'utf8')) as CobvSchemas;
    // OpenAPI 3.0 schemas carry `example` and other keywords ajv's strict mode refuses: not strict.
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    cobvValidators = { put: ajv.compile(schemas.request.put), patch: ajv.compile(schemas.request.patch) };
  }
  return cobvValidators;
}

/**
 * ajv's errors as the standard's violacoes, one per property (`cobv.valor.original`). A oneOf (devedor:
 * CPF or CNPJ) is reported as its object, as the standard's example does ("O objeto cobv.devedor não
 * respeita o _schema_."), not branch by branch.
 */
function schemaViolations(errors: readonly ErrorObject[] | null | undefined): Violacao[] {
  const byProperty = new Map<string, Violacao>();
  for (const error of errors ?? []) {
    if (error.schemaPath.includes('/oneOf/')) continue;
    const missing = error.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined;
    const propriedade = `cobv${`${error.instancePath}${missing ? `/${missing}` : ''}`.split('/').join('.')}`;
    if (byProperty.has(propriedade)) continue;
    const razao = `${error.keyword === 'oneOf' ? 'O objeto' : 'O campo'} ${propriedade} não respeita o _schema_.`;
    byProperty.set(propriedade, { razao, propriedade });
  }
  return [...byProperty.values()];
}

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

/** The standard's anchored money (its schema's pattern is unanchored), not zero when `positive`. */
function moneyViolation(value: unknown, propriedade: string, positive: boolean): Violacao[] {
  if (value === undefined) return [];
  if (typeof value !== 'string' || !MONEY.test(value)) return [{ razao: `O campo ${propriedade} não respeita o _schema_.`, propriedade }];
  if (positive && cents(value) === 0) return [{ razao: `O campo ${propriedade} apresenta o valor zero.`, propriedade }];
  return [];
}

/** The /cobv rules beyond the schema (its "Violações"): anchored txid and amounts, a non-zero amount, a due date from today, the key. */
function cobvSemanticViolations(txid: string, cobv: Record<string, unknown>, pixKey: string): Violacao[] {
  const violacoes: Violacao[] = [];
  if (!TXID.test(txid)) violacoes.push({ razao: 'O campo txid não respeita o _schema_.', propriedade: 'txid' });
  const calendario = isRecord(cobv.calendario) ? cobv.calendario : {};
  const valor = isRecord(cobv.valor) ? cobv.valor : {};
  if (typeof calendario.dataDeVencimento === 'string' && calendario.dataDeVencimento < brazilDate(new Date())) {
    violacoes.push({
      razao: 'O campo cobv.calendario.dataDeVencimento é anterior à data de criação da cobrança.',
      propriedade: 'cobv.calendario.dataDeVencimento',
    });
  }
  if (typeof calendario.validadeAposVencimento === 'number' && calendario.validadeAposVencimento < 0) {
    violacoes.push({ razao: 'O campo cobv.calendario.validadeAposVencimento é menor do que zero.', propriedade: 'cobv.calendario.validadeAposVencimento' });
  }
  violacoes.push(...moneyViolation(valor.original, 'cobv.valor.original', true));
  for (const term of ['multa', 'juros', 'abatimento'] as const) {
    const item = valor[term];
    if (isRecord(item)) violacoes.push(...moneyViolation(item.valorPerc, `cobv.valor.${term}`, false));
  }
  if (typeof cobv.chave === 'string' && cobv.chave !== pixKey) {
    violacoes.push({ razao: 'O campo cobv.chave corresponde a uma conta que não pertence a este usuário recebedor.', propriedade: 'cobv.chave' });
  }
  return violacoes;
}

/** A JSON value's own copy (the stored cobv never shares objects with a request). */
function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
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
  const cobvs = new Map<string, StoredCobv>();
  /** Pix received that paid no charge (receive()). */
  const loose: PspPix[] = [];
  const webhooks = new Map<string, { webhookUrl: string; criacao: string }>();
  const webhookUrls = new Map<string, string>();
  const tokens = new Map<string, number>(); // token → expiry (epoch ms)
  const requests: Array<{ method: string; path: string; status: number | 'timeout' }> = [];
  const requestBodies: Array<{ method: string; path: string; body: unknown }> = [];
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
    if (cobs.has(txid) || cobvs.has(txid)) {
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

  const cobvDetail = 'A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_ ou está semanticamente errada.';
  const cobvInvalid = (violacoes: Violacao[]): Reply => problem(400, 'CobVOperacaoInvalida', 'Cobrança inválida.', cobvDetail, violacoes);
  const cobvNotFound = (): Reply =>
    problem(404, 'CobVNaoEncontrada', 'Cobrança não encontrada.', 'Cobrança com vencimento não encontrada para o txid informado.');

  /** PUT /cobv/{txid}: the standard's CobVSolicitada, then its semantic rules; a txid in use (cob or cobv) is refused as /cob's. */
  const putCobv = (txid: string, body: unknown): Reply => {
    const validate = cobvRequestValidators().put;
    if (!validate(body))
      return cobvInvalid([
        ...(TXID.test(txid) ? [] : [{ razao: 'O campo txid não respeita o _schema_.', propriedade: 'txid' }]),
        ...schemaViolations(validate.errors),
      ]);
    const request = body as Record<string, unknown> & {
      calendario: { dataDeVencimento: string; validadeAposVencimento?: number };
      devedor: Record<string, unknown>;
      valor: Record<string, unknown> & { original: string };
      chave: string;
    };
    const violacoes = cobvSemanticViolations(txid, request, pixKey);
    if (violacoes.length > 0) return cobvInvalid(violacoes);
    if (cobs.has(txid) || cobvs.has(txid)) return problem(400, 'CobVOperacaoInvalida', 'Cobrança inválida.', 'O txid informado já está em uso.');
    const criacao = new Date().toISOString();
    const location = `127.0.0.1:${port}/qr/v2/cobv/${randomBytes(16).toString('hex')}`;
    const cobv: StoredCobv = {
      calendario: {
        criacao,
        dataDeVencimento: request.calendario.dataDeVencimento,
        validadeAposVencimento: request.calendario.validadeAposVencimento ?? DEFAULT_VALIDADE_APOS_VENCIMENTO,
      },
      txid,
      revisao: 0,
      loc: { id: nextLocId++, location, tipoCob: 'cobv', criacao, txid },
      location,
      status: 'ATIVA',
      devedor: copy(request.devedor),
      recebedor: RECEBEDOR,
      valor: copy(request.valor),
      chave: request.chave,
      ...(typeof request.solicitacaoPagador === 'string' ? { solicitacaoPagador: request.solicitacaoPagador } : {}),
      ...(request.infoAdicionais !== undefined ? { infoAdicionais: copy(request.infoAdicionais) } : {}),
      pixCopiaECola: buildDynamicBrCode({ location, merchantName: 'Loja de Teste', merchantCity: 'Sao Paulo' }),
    };
    cobvs.set(txid, cobv);
    return { status: 201, body: cobv };
  };

  /**
   * PATCH /cobv/{txid}: the standard's CobVRevisada. An ATIVA cobv only; `status` (withdrawal) alone;
   * otherwise the fields given replace the stored ones (calendario and valor field by field), revisao + 1.
   */
  const patchCobv = (txid: string, body: unknown): Reply => {
    const validate = cobvRequestValidators().patch;
    if (!validate(body)) return cobvInvalid(schemaViolations(validate.errors));
    const revision = body as Record<string, unknown>;
    const cobv = cobvs.get(txid);
    if (!cobv) return cobvNotFound();
    if (cobv.status !== 'ATIVA') {
      return problem(
        400,
        'CobVOperacaoInvalida',
        'Operação inválida.',
        'Cobrança não encontra-se mais com o status ATIVA, somente cobranças ativas podem ser revisadas.',
      );
    }
    const changes = Object.keys(revision).filter((key) => key !== 'loc' && key !== 'status');
    if (revision.status !== undefined) {
      if (changes.length > 0) {
        return cobvInvalid([
          {
            razao:
              'A cobrança está ATIVA, e a presente requisição propõe alterar seu status para REMOVIDA_PELO_USUARIO_RECEBEDOR juntamente com outras alterações.',
            propriedade: 'cobv.status',
          },
        ]);
      }
      cobv.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
      cobv.revisao += 1;
      return { status: 200, body: cobv };
    }
    const revised = copy(cobv);
    for (const key of changes) {
      const value = copy(revision[key]);
      const target = revised as unknown as Record<string, unknown>;
      target[key] = (key === 'calendario' || key === 'valor') && isRecord(value) ? { ...(target[key] as Record<string, unknown>), ...value } : value;
    }
    const violacoes = cobvSemanticViolations(txid, revised as unknown as Record<string, unknown>, pixKey);
    if (violacoes.length > 0) return cobvInvalid(violacoes);
    if (changes.length > 0) revised.revisao += 1;
    Object.assign(cobv, revised);
    return { status: 200, body: cobv };
  };

  /**
   * PATCH /cob/{txid}: the standard's CobRevisada, validated against its schema. Only the withdrawal
   * (`status` REMOVIDA_PELO_USUARIO_RECEBEDOR alone) of an ATIVA cob is served: the gateway revises
   * nothing else; a cob no longer ATIVA is refused as the standard's PSPs do.
   */
  const patchCob = (txid: string, body: unknown): Reply => {
    const detail = 'A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o _schema_ ou está semanticamente errada.';
    const validate = cobPatchRequestValidator();
    if (!validate(body)) return problem(400, 'CobOperacaoInvalida', 'Cobrança inválida.', detail, schemaViolations(validate.errors));
    const revision = body as Record<string, unknown>;
    const cob = cobs.get(txid);
    if (!cob) return problem(404, 'CobNaoEncontrado', 'Cobrança não encontrada.', 'Cobrança imediata não encontrada para o txid informado.');
    if (cob.status !== 'ATIVA') {
      return problem(
        400,
        'CobOperacaoInvalida',
        'Operação inválida.',
        'Cobrança não encontra-se mais com o status ATIVA, somente cobranças ativas podem ser revisadas.',
      );
    }
    const changes = Object.keys(revision).filter((key) => key !== 'status');
    if (revision.status === undefined || changes.length > 0) {
      return problem(400, 'CobOperacaoInvalida', 'Cobrança inválida.', detail, [
        { razao: 'Este PSP de teste só aceita a remoção (status REMOVIDA_PELO_USUARIO_RECEBEDOR, sozinho).', propriedade: 'cob.status' },
      ]);
    }
    cob.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
    cob.revisao += 1;
    return { status: 200, body: cob };
  };

  const getCobv = (txid: string): Reply => {
    const cobv = cobvs.get(txid);
    return cobv ? { status: 200, body: cobv } : cobvNotFound();
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

  /**
   * GET /pix: the Pix received whose horario is in [inicio, fim] (both required, RFC 3339), oldest first,
   * paged by paginacao.paginaAtual (from 0) and paginacao.itensPorPagina (default 100, at most 1000).
   */
  const listPix = (query: URLSearchParams): Reply => {
    const inicio = Date.parse(query.get('inicio') ?? '');
    const fim = Date.parse(query.get('fim') ?? '');
    const page = Number(query.get('paginacao.paginaAtual') ?? '0');
    const size = Number(query.get('paginacao.itensPorPagina') ?? '100');
    if (
      Number.isNaN(inicio) ||
      Number.isNaN(fim) ||
      fim < inicio ||
      !Number.isInteger(page) ||
      page < 0 ||
      !Number.isInteger(size) ||
      size < 1 ||
      size > 1000
    ) {
      return problem(400, 'ConsultaInvalida', 'Consulta inválida', 'Os parâmetros da consulta não respeitam o schema.');
    }
    const all = [...cobs.values(), ...cobvs.values()].flatMap((c) => c.pix ?? []).concat(loose);
    const within = all
      .filter((p) => Date.parse(p.horario) >= inicio && Date.parse(p.horario) <= fim)
      .sort((a, b) => Date.parse(a.horario) - Date.parse(b.horario) || a.endToEndId.localeCompare(b.endToEndId));
    const pages = Math.max(1, Math.ceil(within.length / size));
    return {
      status: 200,
      body: {
        parametros: {
          inicio: new Date(inicio).toISOString(),
          fim: new Date(fim).toISOString(),
          paginacao: { paginaAtual: page, itensPorPagina: size, quantidadeDePaginas: pages, quantidadeTotalDeItens: within.length },
        },
        pix: within.slice(page * size, page * size + size),
      },
    };
  };

  const route = (req: IncomingMessage, method: string, path: string, text: string, query: URLSearchParams): Reply => {
    if (path === '/oauth/token') return method === 'POST' ? issueToken(req, text) : notFound();
    if (!path.startsWith('/v2/')) return notFound();
    if (!authorized(req)) return problem(401, 'AcessoNegado', 'Não autorizado', 'Token de acesso ausente, inválido ou expirado.');
    if (path === '/v2/pix') return method === 'GET' ? listPix(query) : notFound();
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
    if (resource === 'cob' && method === 'PATCH') return patchCob(id, text.trim() === '' ? undefined : parseJson(text));
    if (resource === 'cob' && method === 'GET') return getCob(id);
    if (resource === 'cobv' && method === 'PUT') return putCobv(id, text.trim() === '' ? undefined : parseJson(text));
    if (resource === 'cobv' && method === 'PATCH') return patchCobv(id, text.trim() === '' ? undefined : parseJson(text));
    if (resource === 'cobv' && method === 'GET') return getCobv(id);
    if (resource === 'webhook' && method === 'PUT') return putWebhook(id, parseJson(text));
    if (resource === 'webhook' && method === 'GET') return getWebhook(id);
    return notFound();
  };

  const faultReply = (fault: PspFault, serve: () => Reply): Reply => {
    if (fault.mode === 'timeout') return 'hold';
    if (fault.mode === 'lost') {
      serve();
      return 'hold';
    }
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
    const [path = '/', search = ''] = (req.url ?? '/').split('?');
    let text: string;
    try {
      text = await readBody(req);
    } catch {
      res.destroy();
      return;
    }
    if (path.startsWith('/v2/') && text.trim() !== '') requestBodies.push({ method, path, body: parseJson(text) });
    const fault = takeFault(method, path);
    const serve = () => route(req, method, path, text, new URLSearchParams(search));
    const reply = fault ? faultReply(fault, serve) : serve();
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

  const cobOf = (txid: string): Payable => {
    const cob = cobs.get(txid) ?? cobvs.get(txid);
    if (!cob) throw new Error(`The test PSP has no cob or cobv with txid ${txid}`);
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
    cobvs,
    webhooks: webhookUrls,
    tokensIssued: () => issued,
    requests,
    requestBodies,
    fail(fault) {
      if (!Number.isInteger(fault.times) || fault.times <= 0) throw new Error('A fault needs a positive integer `times`');
      faults.push({ ...fault, left: fault.times });
    },
    pay(txid, payOptions = {}) {
      const cob = cobOf(txid);
      if (cob.status !== 'ATIVA') throw new Error(`The cob ${txid} is ${cob.status}, not ATIVA`);
      const valor = payOptions.valor ?? cob.valor.original;
      if (!MONEY.test(valor)) throw new Error(`Not an amount: ${valor}`);
      const payment: PspPix = {
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
    receive(receiveOptions) {
      if (!MONEY.test(receiveOptions.valor)) throw new Error(`Not an amount: ${receiveOptions.valor}`);
      if (receiveOptions.txid !== undefined && (cobs.has(receiveOptions.txid) || cobvs.has(receiveOptions.txid))) {
        throw new Error(`The txid ${receiveOptions.txid} is a charge's: pay() it`);
      }
      const payment: PspPix = {
        endToEndId: receiveOptions.endToEndId ?? spiId('E'),
        ...(receiveOptions.txid === undefined ? {} : { txid: receiveOptions.txid }),
        valor: receiveOptions.valor,
        chave: pixKey,
        horario: receiveOptions.horario ?? new Date().toISOString(),
      };
      loose.push(payment);
      return payment;
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

/** An API Pix client of the gateway's to a started test PSP, with the client certificate of `certificates`. */
export function testPspClient(psp: TestPsp, certificates: ApiPixCertificates, timeoutMs: number): ApiPixClient {
  return apiPixClient({
    baseUrl: psp.baseUrl,
    tokenUrl: psp.tokenUrl,
    clientId: psp.clientId,
    credentials: async () => ({
      clientSecret: psp.clientSecret,
      certificate: certificates.clientCert,
      privateKey: certificates.clientKey,
      ca: certificates.ca,
    }),
    timeoutMs,
  });
}

import * as z from 'zod';
import { expirationSeconds, MAX_EXPIRATION_SECONDS } from '../../../domain/pix-expiration';
import { formatCents, parseAmountToCents } from '../../../domain/money';
import type { PixCharge, PixChargeRequest, PixChargeState, PixPayment } from '../../../ports/payment-provider';

/**
 * The Central Bank's API Pix v2 shapes the adapter speaks (bacen/pix-api openapi.yaml), as pure
 * functions: the body of PUT /cob/{txid}, the cob the PSP answers, the callback it POSTs. Values in,
 * values out: no I/O.
 */

/** solicitacaoPagador is at most 140 characters; devedor.nome at most 200. */
const PAYER_NOTE_MAX = 140;
const DEBTOR_NAME_MAX = 200;

export type CobRequest = {
  calendario: { expiracao: number };
  devedor?: { cpf: string; nome: string } | { cnpj: string; nome: string };
  valor: { original: string };
  chave: string;
  solicitacaoPagador: string;
};

/**
 * The body of PUT /cob/{txid}: the payer as devedor only when both a CPF/CNPJ and a name are known (the
 * standard asks for both). An immediate charge (/cob) with `calendario.expiracao` (shared/domain/pix-expiration.ts)
 * is used for every Pix charge, a due date beyond today included: /cobv would need the payer's CPF/CNPJ
 * and name, which a Pix charge does not require (docs/decisions.md).
 */
export function cobRequestBody(request: PixChargeRequest, pixKey: string, now: Date): CobRequest {
  const { document, name } = request.payer;
  const nome = name?.trim().slice(0, DEBTOR_NAME_MAX);
  const devedor =
    document && nome ? (document.length === 11 ? { cpf: document, nome } : document.length === 14 ? { cnpj: document, nome } : undefined) : undefined;
  const expiracao = expirationSeconds(request.dueDate, now);
  // The route refuses such a due date first (422 on due_date); never send what the standard cannot carry.
  if (expiracao > MAX_EXPIRATION_SECONDS) throw new Error(`A Pix charge due ${request.dueDate} is past API Pix's int32 expiracao`);
  return {
    calendario: { expiracao },
    ...(devedor ? { devedor } : {}),
    valor: { original: formatCents(request.amountCents) },
    chave: pixKey,
    solicitacaoPagador: `${request.merchantName} ${request.reference}`.slice(0, PAYER_NOTE_MAX),
  };
}

const money = z
  .string()
  .max(13)
  .regex(/^\d{1,10}\.\d{2}$/);

/** A date-time as the PSP writes it (RFC 3339). */
const instantText = z.string().max(40);

const devolucaoSchema = z.object({
  id: z.string().max(64).optional(),
  rtrId: z.string().max(64).optional(),
  valor: money,
  horario: z.object({ solicitacao: instantText.optional(), liquidacao: instantText.optional() }).optional(),
  status: z.string().max(40),
});

export const pixSchema = z.object({
  endToEndId: z.string().min(1).max(64),
  txid: z.string().max(35).optional(),
  valor: money,
  horario: instantText.min(1),
  devolucoes: z.array(devolucaoSchema).max(100).optional(),
});

/** The body of PATCH /cob/{txid} and PATCH /cobv/{txid} that withdraws an unpaid charge (bacen/pix-api: CobRevisada, CobVRevisada). */
export const REMOVAL_BODY = { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } as const;

/** What a refused withdrawal means, from the charge's status as the PSP holds it now (undefined: unknown to it); undefined for a status that is neither. */
export function removalOfStatus(status: string | undefined): 'removed' | 'paid' | 'unknown' | undefined {
  if (status === undefined) return 'unknown';
  if (status === 'REMOVIDA_PELO_USUARIO_RECEBEDOR' || status === 'REMOVIDA_PELO_PSP') return 'removed';
  if (status === 'CONCLUIDA') return 'paid';
  return undefined;
}

/** A cob as the PSP answers it (PUT and GET): only the fields the gateway reads are checked. */
export const cobSchema = z.object({
  txid: z.string().regex(/^[a-zA-Z0-9]{26,35}$/),
  status: z.string(),
  valor: z.object({ original: money }),
  chave: z.string().optional(),
  location: z.string().optional(),
  loc: z.object({ location: z.string() }).optional(),
  pixCopiaECola: z.string().optional(),
  pix: z.array(pixSchema).optional(),
});

export type Cob = z.output<typeof cobSchema>;

/** The charge the invoice records from the PSP's cob: its txid, location and BR Code, as the PSP gave them. */
export function pixChargeOf(cob: Cob): PixCharge | undefined {
  const location = cob.location ?? cob.loc?.location;
  if (!location || !cob.pixCopiaECola) return undefined;
  return { txid: cob.txid, location, copy: cob.pixCopiaECola };
}

/** Whether a cob found under a txid is the one this request would have created (a retry's first PUT): same amount, same key. */
export function isSameCharge(cob: Cob, body: CobRequest): boolean {
  return cob.valor.original === body.valor.original && (cob.chave === undefined || cob.chave === body.chave);
}

const STATUS: Readonly<Record<string, PixChargeState['status']>> = {
  ATIVA: 'ACTIVE',
  CONCLUIDA: 'COMPLETED',
  REMOVIDA_PELO_USUARIO_RECEBEDOR: 'REMOVED',
  REMOVIDA_PELO_PSP: 'REMOVED',
};

function instant(text: string | undefined): Date | undefined {
  if (!text) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/** One payment of a cob: its amount, and what of it was returned (DEVOLVIDO refunds only). */
export function pixPaymentOf(pix: z.output<typeof pixSchema>): PixPayment | undefined {
  const paidAt = instant(pix.horario);
  if (!paidAt) return undefined;
  const returned = (pix.devolucoes ?? []).filter((d) => d.status === 'DEVOLVIDO');
  const refundedAt = returned
    .map((d) => instant(d.horario?.liquidacao ?? d.horario?.solicitacao))
    .filter((d): d is Date => d !== undefined)
    .sort((a, b) => a.getTime() - b.getTime())
    .at(-1);
  return {
    endToEndId: pix.endToEndId,
    amountCents: parseAmountToCents(pix.valor),
    paidAt,
    refundedCents: returned.reduce((sum, d) => sum + parseAmountToCents(d.valor), 0),
    ...(refundedAt ? { refundedAt } : {}),
  };
}

/** The charge's state from a cob (GET /cob/{txid}); an unknown status is an unexpected answer (undefined). */
export function pixChargeStateOf(cob: Cob): PixChargeState | undefined {
  // Own keys only: a status named like an Object property ('constructor') is as unknown as any other.
  const status = Object.hasOwn(STATUS, cob.status) ? STATUS[cob.status] : undefined;
  if (!status) return undefined;
  const payments = (cob.pix ?? []).map(pixPaymentOf);
  if (payments.some((p) => p === undefined)) return undefined;
  return { txid: cob.txid, status, amountCents: parseAmountToCents(cob.valor.original), payments: payments as PixPayment[] };
}

/** The callback the PSP POSTs to `<webhookUrl>/pix`: one or more Pix received (each names its txid, when it paid a cob). */
export const pixCallbackSchema = z.object({
  pix: z.array(pixSchema).min(1).max(1000),
});

/** The distinct txids a callback names (a Pix without a txid paid no charge of ours: a static key transfer). */
export function callbackTxids(callback: z.output<typeof pixCallbackSchema>): string[] {
  return [...new Set(callback.pix.map((p) => p.txid).filter((t): t is string => typeof t === 'string' && /^[a-zA-Z0-9]{26,35}$/.test(t)))];
}

/** The problem details (RFC 7807) of an API Pix error answer, as one line for the merchant. */
export function problemMessage(body: unknown): string {
  const problem = (typeof body === 'object' && body !== null ? body : {}) as { title?: unknown; detail?: unknown; violacoes?: unknown };
  const parts = [problem.title, problem.detail].filter((p): p is string => typeof p === 'string' && p.length > 0);
  const violations = Array.isArray(problem.violacoes)
    ? problem.violacoes
        .map((v: unknown) => {
          const { razao, propriedade } = (typeof v === 'object' && v !== null ? v : {}) as { razao?: unknown; propriedade?: unknown };
          return typeof razao === 'string' ? (typeof propriedade === 'string' ? `${propriedade}: ${razao}` : razao) : undefined;
        })
        .filter((v): v is string => v !== undefined)
    : [];
  return [...parts, ...violations].join(' ').slice(0, 300) || 'The PSP refused the request';
}

/** Whether the PSP's problem lists field violations (answered 422 to the merchant; other refusals 400). */
export function hasViolations(body: unknown): boolean {
  const v = (typeof body === 'object' && body !== null ? (body as { violacoes?: unknown }).violacoes : undefined) ?? [];
  return Array.isArray(v) && v.length > 0;
}

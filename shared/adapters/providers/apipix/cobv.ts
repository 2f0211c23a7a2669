import * as z from 'zod';
import { formatCents } from '../../../domain/money';
import type { PixCharge, PixChargeState, PixDueChargeRequest } from '../../../ports/payment-provider';
import { cobSchema, pixChargeOf, pixChargeStateOf } from './cob';

/**
 * The Central Bank's API Pix v2 due-date charge (`cobv`, bacen/pix-api openapi.yaml, schemas
 * CobVSolicitada / CobVGerada / CobVCompleta) as pure functions: the body of PUT /cobv/{txid}, the
 * cobv the PSP answers. The Pix half of a BolePix: same total, due date and late-payment rules as its
 * boleto. Values in, values out: no I/O.
 */

/** `valor.multa.modalidade` 2: "Percentual" (1 is "Valor Fixo"). */
export const FINE_MODALITY_PERCENT = 2;
/** `valor.juros.modalidade` 3: "Percentual ao mês (dias corridos)", simple and pro rata per calendar day as shared/domain/late-payment.ts. */
export const INTEREST_MODALITY_PERCENT_A_MONTH_CALENDAR_DAYS = 3;

/** devedor.nome and chave: the standard's maxLength (characters, as JSON Schema counts them: code points). */
const DEBTOR_NAME_MAX = 200;
const PIX_KEY_MAX = 77;
/** `\d{1,10}\.\d{2}`: the largest amount (or percentage) the standard's money fields carry, in hundredths. */
const MAX_HUNDREDTHS = 999_999_999_999;
/** validadeAposVencimento is an int32; the standard refuses it below zero. */
const MAX_INT32 = 2_147_483_647;
const TXID = /^[a-zA-Z0-9]{26,35}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export type CobvDevedor = { cpf: string; nome: string } | { cnpj: string; nome: string };

export type CobvRequest = {
  calendario: { dataDeVencimento: string; validadeAposVencimento: number };
  devedor: CobvDevedor;
  valor: {
    original: string;
    multa?: { modalidade: typeof FINE_MODALITY_PERCENT; valorPerc: string };
    juros?: { modalidade: typeof INTEREST_MODALITY_PERCENT_A_MONTH_CALENDAR_DAYS; valorPerc: string };
  };
  chave: string;
};

/** Characters as JSON Schema's maxLength counts them (Unicode code points, not UTF-16 units). */
function characters(text: string): number {
  return [...text].length;
}

/** Hundredths (cents, or basis points: hundredths of a percent) as the standard's "0.00" text; throws past what it carries. */
function hundredths(value: number, field: string, min: number): string {
  if (!Number.isSafeInteger(value) || value < min || value > MAX_HUNDREDTHS) {
    throw new Error(`API Pix cannot carry ${field}: a whole number of hundredths from ${formatCents(min)} to ${formatCents(MAX_HUNDREDTHS)}`);
  }
  return formatCents(value);
}

/** A real calendar date, YYYY-MM-DD (the standard's `format: date`). */
function dueDateOf(date: string): string {
  const ms = DATE.test(date) ? Date.parse(`${date}T00:00:00.000Z`) : Number.NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date) {
    throw new Error(`API Pix cannot carry calendario.dataDeVencimento "${date.slice(0, 20)}": a calendar date YYYY-MM-DD`);
  }
  return date;
}

/** The payer as devedor: CPF (11 digits) or CNPJ (14 digits) and a name. Never names the document or the name in the error. */
function devedorOf(payer: PixDueChargeRequest['payer']): CobvDevedor {
  const nome = payer.name.trim();
  if (nome === '' || characters(nome) > DEBTOR_NAME_MAX) throw new Error(`API Pix cannot carry devedor.nome: 1 to ${DEBTOR_NAME_MAX} characters`);
  if (/^\d{11}$/.test(payer.document)) return { cpf: payer.document, nome };
  // The standard's CNPJ is `^[0-9A-Z]{14}$`: the alphanumeric CNPJ (from July 2026) too.
  if (/^[0-9A-Z]{14}$/.test(payer.document)) return { cnpj: payer.document, nome };
  throw new Error('API Pix cannot carry devedor.cpf/devedor.cnpj: a CPF of 11 digits or a CNPJ of 14 digits and capital letters');
}

/**
 * The body of PUT /cobv/{txid}: due date and the days it stays payable after it, the payer, the total,
 * the fine (percent modality, once) and the interest (percent a month, calendar days) only when not
 * zero, and the receiver's key. Throws (naming the field) on anything the standard cannot carry, so
 * the PSP is never sent a body it must refuse.
 */
export function cobvRequestBody(request: PixDueChargeRequest, pixKey: string): CobvRequest {
  if (!TXID.test(request.txid)) throw new Error('API Pix cannot carry the txid: 26 to 35 letters and digits');
  const { daysAfterDue } = request.late;
  if (!Number.isSafeInteger(daysAfterDue) || daysAfterDue < 0 || daysAfterDue > MAX_INT32) {
    throw new Error(`API Pix cannot carry calendario.validadeAposVencimento: a whole number of days from 0 to ${MAX_INT32}`);
  }
  if (pixKey === '' || characters(pixKey) > PIX_KEY_MAX) throw new Error(`API Pix cannot carry chave: 1 to ${PIX_KEY_MAX} characters`);
  const fine = hundredths(request.late.fineBasisPoints, 'valor.multa.valorPerc', 0);
  const interest = hundredths(request.late.interestBasisPointsAMonth, 'valor.juros.valorPerc', 0);
  return {
    calendario: { dataDeVencimento: dueDateOf(request.dueDate), validadeAposVencimento: daysAfterDue },
    devedor: devedorOf(request.payer),
    valor: {
      original: hundredths(request.amountCents, 'valor.original', 1),
      ...(request.late.fineBasisPoints > 0 ? { multa: { modalidade: FINE_MODALITY_PERCENT, valorPerc: fine } } : {}),
      ...(request.late.interestBasisPointsAMonth > 0 ? { juros: { modalidade: INTEREST_MODALITY_PERCENT_A_MONTH_CALENDAR_DAYS, valorPerc: interest } } : {}),
    },
    chave: pixKey,
  };
}

const percent = z
  .string()
  .max(13)
  .regex(/^\d{1,10}\.\d{2}$/);

/** A modality as an integer; some PSPs write it as a string ("2"), as the standard's own example does. */
const modality = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^\d{1,2}$/)
    .transform(Number),
]);

const lateTermSchema = z.object({ modalidade: modality, valorPerc: percent });

/** A cobv as the PSP answers it (PUT, PATCH and GET): a cob's fields the gateway reads, and the due date, payer and late terms. */
export const cobvSchema = cobSchema.extend({
  calendario: z.object({ dataDeVencimento: z.string().max(10).optional(), validadeAposVencimento: z.number().int().optional() }).optional(),
  devedor: z.object({ cpf: z.string().max(14).optional(), cnpj: z.string().max(14).optional() }).optional(),
  valor: z.object({ original: cobSchema.shape.valor.shape.original, multa: lateTermSchema.optional(), juros: lateTermSchema.optional() }),
});

export type Cobv = z.output<typeof cobvSchema>;

/** The charge the boleto records from the PSP's cobv: its txid, location (`location` or `loc.location`) and BR Code. */
export function pixChargeOfCobv(cobv: Cobv): PixCharge | undefined {
  return pixChargeOf(cobv);
}

/** The charge's state from a cobv (GET /cobv/{txid}), as a cob's: a late payment shows what was paid (more than valor.original). */
export function pixChargeStateOfCobv(cobv: Cobv): PixChargeState | undefined {
  return pixChargeStateOf(cobv);
}

function sameTerm(answered: z.output<typeof lateTermSchema> | undefined, sent: { modalidade: number; valorPerc: string } | undefined): boolean {
  if (!answered || !sent) return answered === sent;
  return answered.modalidade === sent.modalidade && answered.valorPerc === sent.valorPerc;
}

/**
 * Whether a cobv found under a txid is the one this body would have created (a retry's first PUT): same
 * amount, key, due date, payer document and late terms; fields the answer leaves out are not compared.
 */
export function isSameCobv(existing: Cobv, body: CobvRequest): boolean {
  const { calendario, devedor, valor } = existing;
  const cpf = 'cpf' in body.devedor ? body.devedor.cpf : undefined;
  const cnpj = 'cnpj' in body.devedor ? body.devedor.cnpj : undefined;
  return (
    valor.original === body.valor.original &&
    (existing.chave === undefined || existing.chave === body.chave) &&
    (calendario?.dataDeVencimento === undefined || calendario.dataDeVencimento === body.calendario.dataDeVencimento) &&
    (devedor === undefined || (devedor.cpf === cpf && devedor.cnpj === cnpj)) &&
    sameTerm(valor.multa, body.valor.multa) &&
    sameTerm(valor.juros, body.valor.juros)
  );
}

import { amountDue, calendarDaysBetween, type LatePaymentRules } from './late-payment';
import type { Invoice } from './invoice';
import type { InvoiceStatus } from './invoice-transitions';
import type { BolePixRail, PaymentRail } from './payment-methods';

/**
 * BolePix (issue 28): a boleto that also carries a due-date Pix charge for the same total, due date and
 * late-payment rules, one invoice on two rails. Pure rules over the invoice record: what a payment on a
 * rail means, which rails a move leaves open, and when the invoice expires.
 */

export type { BolePixRail, PaymentRail };

/** The rules of a charge created without late-payment fields: no fine, no interest, payable up to the due date. */
export const NO_LATE_PAYMENT: LatePaymentRules = { fineBasisPoints: 0, interestBasisPointsAMonth: 0, daysAfterDue: 0 };

/** Whether a rail is one of a BolePix's two. */
function isBolePixRail(rail: PaymentRail): rail is BolePixRail {
  return rail === 'pix' || rail === 'boleto';
}

/** Whether an invoice is a BolePix: a boleto with its due-date Pix charge. */
export function isBolePix(invoice: Pick<Invoice, 'method' | 'pix' | 'boleto'>): boolean {
  return invoice.method === 'boleto' && invoice.pix !== undefined;
}

/** Whether an invoice's rails are kept by the rails upkeep: it expires, and its other rail closes once one rail pays. */
export function hasRailUpkeep(invoice: Pick<Invoice, 'method' | 'pix' | 'boleto' | 'late'>): boolean {
  return invoice.method === 'boleto' && (invoice.pix !== undefined || invoice.late !== undefined);
}

/** The rail a payment notification names: a txid is the Pix rail; a reference is the invoice's own method. */
export function railOf(target: { txid: string } | { reference: string }, invoice: Pick<Invoice, 'method'>): PaymentRail {
  return 'txid' in target ? 'pix' : invoice.method;
}

/** The last Brazil calendar date a charge accepts payment: its due date plus the days after due of its rules. */
export function lastPayableDate(invoice: Pick<Invoice, 'dueDate' | 'late'>): string {
  const days = invoice.late?.daysAfterDue ?? 0;
  return new Date(Date.parse(`${invoice.dueDate}T12:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** What a payment made on `payDate` should be, for the invoice's rules: the amount due, or not payable (past the window). */
export function expectedPayment(
  invoice: Pick<Invoice, 'totalCents' | 'dueDate' | 'late'>,
  payDate: string,
): { payable: true; dueCents: number } | { payable: false } {
  if (!invoice.late) return { payable: true, dueCents: invoice.totalCents };
  const due = amountDue(invoice.totalCents, invoice.late, invoice.dueDate, payDate);
  return due.payable ? { payable: true, dueCents: due.dueCents } : { payable: false };
}

/**
 * What a confirmed payment means for its invoice:
 * - `invoice_payment`: it pays the invoice (the one move to PAID) at `amountCents`;
 * - `other_rail_payment`: a BolePix already paid on the other rail was paid again on this one: credited
 *   on its own, flagged as a refund due, never a second payment of the invoice;
 * - `anomaly`: another amount than the one due that day, or a day past the window: not credited;
 * - `not_a_payment`: nothing to credit here (the move table decides: a duplicate, a refunded invoice).
 * `paidCents` undefined: the provider paid what was due (the simulated provider's default).
 */
export type PaymentVerdict =
  | { kind: 'invoice_payment'; amountCents: number }
  | { kind: 'other_rail_payment'; rail: BolePixRail; amountCents: number }
  | { kind: 'anomaly'; reason: 'amount_mismatch' | 'past_window'; paidCents?: number; expectedCents?: number }
  | { kind: 'not_a_payment' };

const PAYS_FROM: readonly InvoiceStatus[] = ['PENDING', 'CANCELED'];

export function paymentVerdict(
  invoice: Pick<Invoice, 'status' | 'method' | 'pix' | 'boleto' | 'totalCents' | 'dueDate' | 'late' | 'paidRail' | 'otherRailPayment'>,
  rail: PaymentRail,
  paidCents: number | undefined,
  payDate: string,
): PaymentVerdict {
  if (isBolePix(invoice) && invoice.status !== 'PENDING' && invoice.status !== 'CANCELED' && invoice.paidRail !== undefined) {
    if (rail === invoice.paidRail || !isBolePixRail(rail) || invoice.otherRailPayment !== undefined) return { kind: 'not_a_payment' };
    const expected = expectedPayment(invoice, payDate);
    return { kind: 'other_rail_payment', rail, amountCents: paidCents ?? (expected.payable ? expected.dueCents : invoice.totalCents) };
  }
  if (!PAYS_FROM.includes(invoice.status)) return { kind: 'not_a_payment' };
  const expected = expectedPayment(invoice, payDate);
  if (!expected.payable) return { kind: 'anomaly', reason: 'past_window', paidCents };
  if (paidCents !== undefined && paidCents !== expected.dueCents)
    return { kind: 'anomaly', reason: 'amount_mismatch', paidCents, expectedCents: expected.dueCents };
  return { kind: 'invoice_payment', amountCents: expected.dueCents };
}

/**
 * The rails still open that a BolePix's state closes: once PAID (or REFUNDED) the rail that did not pay;
 * once CANCELED both; none while PENDING. A plain boleto has only its own rail to write off when canceled.
 */
export function railsToClose(invoice: Pick<Invoice, 'status' | 'method' | 'pix' | 'boleto' | 'paidRail'>): BolePixRail[] {
  const rails: BolePixRail[] = isBolePix(invoice) ? ['boleto', 'pix'] : ['boleto'];
  if (invoice.status === 'PENDING') return [];
  if (invoice.status === 'CANCELED') return rails;
  return rails.filter((rail) => rail !== (invoice.paidRail ?? 'boleto'));
}

/** Whether an invoice with rail upkeep is past its payment window at `today` (Brazil's date): the upkeep cancels it. */
export function pastPaymentWindow(invoice: Pick<Invoice, 'dueDate' | 'late'>, today: string): boolean {
  return calendarDaysBetween(lastPayableDate(invoice), today) > 0;
}

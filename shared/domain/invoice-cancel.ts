import type { Invoice } from './invoice';
import type { CancelRefusal } from './errors';

/** A rail a merchant's cancellation withdraws: the immediate Pix charge (cob), the due-date one (a BolePix's cobv), the boleto. */
export type CancelRail = 'pix_charge' | 'pix_due_charge' | 'boleto';

/**
 * Why an invoice cannot be canceled by its merchant (issue 46), or undefined when it can: only a PENDING
 * Pix or boleto (BolePix included) charge is withdrawn; a card charge never is (it is authorized at
 * once, or settling with its processor), and an invoice past PENDING is a refund's job.
 */
export function cancelRefusal(invoice: Pick<Invoice, 'status' | 'method'>): CancelRefusal | undefined {
  if (invoice.method !== 'pix' && invoice.method !== 'boleto') return 'method_not_cancelable';
  if (invoice.status !== 'PENDING') return 'invoice_not_pending';
  return undefined;
}

/** The rails to withdraw before an invoice is canceled, in order: a BolePix's Pix half first (the instant rail), then its boleto. */
export function railsToWithdraw(invoice: Pick<Invoice, 'method' | 'pix'>): CancelRail[] {
  if (invoice.method === 'pix') return ['pix_charge'];
  return invoice.pix ? ['pix_due_charge', 'boleto'] : ['boleto'];
}

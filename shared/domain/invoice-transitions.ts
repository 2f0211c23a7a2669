/**
 * THE list of allowed invoice state moves (spec 3). A move not listed here is ignored (and logged).
 * `balance` is the sign of the balance change the move makes with the invoice total.
 */
export type InvoiceStatus = 'PENDING' | 'PAID' | 'CANCELED' | 'REFUNDED';
export type InvoiceEventType = 'invoice.paid' | 'invoice.canceled' | 'invoice.refunded';

export type InvoiceMove = {
  from: InvoiceStatus;
  to: InvoiceStatus;
  event: InvoiceEventType;
  balance: 1 | 0 | -1;
  /**
   * A payment confirmed after the invoice was canceled: allowed only for an invoice never paid before
   * (a canceled one whose payment was reversed is never credited again), and flagged
   * `paidAfterCancel` on the invoice (`paid_after_cancel` in its view and events).
   */
  paidAfterCancel?: true;
};

export const INVOICE_MOVES: readonly InvoiceMove[] = [
  { from: 'PENDING', to: 'PAID', event: 'invoice.paid', balance: 1 },
  { from: 'PENDING', to: 'CANCELED', event: 'invoice.canceled', balance: 0 },
  { from: 'PAID', to: 'REFUNDED', event: 'invoice.refunded', balance: -1 },
  // A paid charge canceled by the provider (a card sale canceled by the acquirer): the value leaves the balance, as for a refund.
  { from: 'PAID', to: 'CANCELED', event: 'invoice.canceled', balance: -1 },
  // Spec 3: a confirmed payment moves an invoice to PAID from any shown state. The money reached the
  // provider after the cancellation: credited and flagged for the merchant (docs/decisions.md). A
  // REFUNDED invoice paid again is not listed: its money was already returned once.
  { from: 'CANCELED', to: 'PAID', event: 'invoice.paid', balance: 1, paidAfterCancel: true },
];

/**
 * The move from `from` to `to`, or undefined when the table does not allow it. `paidBefore`: the
 * invoice was paid at some point (it records a payment time); a late-payment move is then refused.
 */
export function invoiceMove(from: InvoiceStatus, to: InvoiceStatus, paidBefore = false): InvoiceMove | undefined {
  const move = INVOICE_MOVES.find((candidate) => candidate.from === from && candidate.to === to);
  return move?.paidAfterCancel && paidBefore ? undefined : move;
}

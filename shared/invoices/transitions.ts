/**
 * THE list of allowed invoice state moves (spec 3). A move not listed here is ignored (and logged).
 * `balance` is the sign of the balance change the move makes with the invoice total.
 */
export type InvoiceStatus = 'PENDING' | 'PAID' | 'CANCELED' | 'REFUNDED';
export type InvoiceEventType = 'invoice.paid' | 'invoice.canceled' | 'invoice.refunded';

export type InvoiceMove = { from: InvoiceStatus; to: InvoiceStatus; event: InvoiceEventType; balance: 1 | 0 | -1 };

export const INVOICE_MOVES: readonly InvoiceMove[] = [
  { from: 'PENDING', to: 'PAID', event: 'invoice.paid', balance: 1 },
  { from: 'PENDING', to: 'CANCELED', event: 'invoice.canceled', balance: 0 },
  { from: 'PAID', to: 'REFUNDED', event: 'invoice.refunded', balance: -1 },
  // A paid charge canceled by the provider (a card sale canceled by the acquirer): the value leaves the balance, as for a refund.
  { from: 'PAID', to: 'CANCELED', event: 'invoice.canceled', balance: -1 },
];

/** The move from `from` to `to`, or undefined when the table does not allow it. */
export function invoiceMove(from: InvoiceStatus, to: InvoiceStatus): InvoiceMove | undefined {
  return INVOICE_MOVES.find((move) => move.from === from && move.to === to);
}

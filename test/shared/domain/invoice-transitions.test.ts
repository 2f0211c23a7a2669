import { describe, expect, it } from 'vitest';
import { INVOICE_MOVES, type InvoiceStatus, invoiceMove } from '../../../shared/domain/invoice-transitions';

const STATUSES: readonly InvoiceStatus[] = ['PENDING', 'PAID', 'CANCELED', 'REFUNDED'];

describe('the invoice moves table', () => {
  it('pays a canceled, never-paid invoice: credited and flagged paid_after_cancel (spec 3: PAID from any shown state)', () => {
    expect(invoiceMove('CANCELED', 'PAID')).toEqual({ from: 'CANCELED', to: 'PAID', event: 'invoice.paid', balance: 1, paidAfterCancel: true });
    expect(invoiceMove('CANCELED', 'PAID', false)?.balance).toBe(1);
  });

  it('never credits an invoice twice: a canceled invoice that was paid before (its payment reversed) is not paid again', () => {
    expect(invoiceMove('CANCELED', 'PAID', true)).toBeUndefined();
    // The ordinary moves do not depend on the payment history.
    expect(invoiceMove('PAID', 'CANCELED', true)).toMatchObject({ balance: -1 });
    expect(invoiceMove('PENDING', 'PAID', false)).toMatchObject({ balance: 1 });
  });

  it('ignores a payment for a REFUNDED invoice and any move to PENDING or to the same state', () => {
    expect(invoiceMove('REFUNDED', 'PAID')).toBeUndefined();
    for (const status of STATUSES) {
      expect(invoiceMove(status, 'PENDING')).toBeUndefined();
      expect(invoiceMove(status, status)).toBeUndefined();
    }
  });

  it('lists each move once; only the late payment carries the marker; a credit always ends in PAID', () => {
    const pairs = INVOICE_MOVES.map((move) => `${move.from}>${move.to}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(INVOICE_MOVES.filter((move) => move.paidAfterCancel).map((move) => `${move.from}>${move.to}`)).toEqual(['CANCELED>PAID']);
    for (const move of INVOICE_MOVES.filter((candidate) => candidate.balance > 0)) expect(move).toMatchObject({ to: 'PAID', event: 'invoice.paid' });
  });
});

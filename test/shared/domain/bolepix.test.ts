import { describe, expect, it } from 'vitest';
import {
  expectedPayment,
  hasRailUpkeep,
  isBolePix,
  lastPayableDate,
  pastPaymentWindow,
  paymentVerdict,
  railOf,
  railsToClose,
} from '../../../shared/domain/bolepix';
import type { Invoice } from '../../../shared/domain/invoice';
import { anInvoice } from '../../support/records';

const boleto = { barcode: '9'.repeat(44), digitable: '9'.repeat(47), customerId: 7 };
const late = { fineBasisPoints: 200, interestBasisPointsAMonth: 100, daysAfterDue: 3 };
/** Total 10000 (100.00), due 2026-12-10, fine 2%, interest 1% a month, 3 days after due. */
const bolePix: Invoice = anInvoice({ method: 'boleto', boleto, totalCents: 10_000, dueDate: '2026-12-10', late });
const plainBoleto: Invoice = { ...anInvoice({ method: 'boleto', boleto }), pix: undefined };

describe('BolePix rules', () => {
  it('tells a BolePix (a boleto with a Pix half) from a plain boleto and a Pix charge; the upkeep keeps boletos with a Pix half or rules', () => {
    expect(isBolePix(bolePix)).toBe(true);
    expect(isBolePix(plainBoleto)).toBe(false);
    expect(isBolePix(anInvoice())).toBe(false);
    expect(hasRailUpkeep(bolePix)).toBe(true);
    expect(hasRailUpkeep(plainBoleto)).toBe(false);
    expect(hasRailUpkeep({ ...plainBoleto, late })).toBe(true);
    expect(hasRailUpkeep({ ...anInvoice(), late })).toBe(false);
  });

  it('names the rail: a txid is Pix, a reference the invoice method', () => {
    expect(railOf({ txid: 'x' }, bolePix)).toBe('pix');
    expect(railOf({ reference: 'INV-AAAAAA' }, bolePix)).toBe('boleto');
  });

  it('is payable through the last day after the due date, then past its window', () => {
    expect(lastPayableDate(bolePix)).toBe('2026-12-13');
    expect(lastPayableDate({ dueDate: '2026-12-30', late: { ...late, daysAfterDue: 5 } })).toBe('2027-01-04');
    expect(lastPayableDate({ dueDate: '2026-12-10' })).toBe('2026-12-10');
    expect(pastPaymentWindow(bolePix, '2026-12-13')).toBe(false);
    expect(pastPaymentWindow(bolePix, '2026-12-14')).toBe(true);
  });

  it('expects the total on time, the late amount after, nothing past the window; without rules, the total any day', () => {
    expect(expectedPayment(bolePix, '2026-12-10')).toEqual({ payable: true, dueCents: 10_000 });
    // 10000 + 200 + round(10000 × 1% / 30 × 2 = 6.67) = 10207.
    expect(expectedPayment(bolePix, '2026-12-12')).toEqual({ payable: true, dueCents: 10_207 });
    expect(expectedPayment(bolePix, '2026-12-14')).toEqual({ payable: false });
    expect(expectedPayment(anInvoice({ totalCents: 777 }), '2099-01-01')).toEqual({ payable: true, dueCents: 777 });
  });

  it('judges a payment: the invoice payment at the amount due; another amount or a day past the window an anomaly', () => {
    expect(paymentVerdict(bolePix, 'pix', 10_207, '2026-12-12')).toEqual({ kind: 'invoice_payment', amountCents: 10_207 });
    expect(paymentVerdict(bolePix, 'boleto', undefined, '2026-12-12')).toEqual({ kind: 'invoice_payment', amountCents: 10_207 });
    expect(paymentVerdict(bolePix, 'pix', 10_206, '2026-12-12')).toEqual({
      kind: 'anomaly',
      reason: 'amount_mismatch',
      paidCents: 10_206,
      expectedCents: 10_207,
    });
    expect(paymentVerdict(bolePix, 'pix', 10_000, '2026-12-14')).toEqual({ kind: 'anomaly', reason: 'past_window', paidCents: 10_000 });
    // A canceled BolePix paid within the window is still its payment (the move table flags it paid after cancel).
    expect(paymentVerdict({ ...bolePix, status: 'CANCELED' }, 'boleto', 10_000, '2026-12-09')).toEqual({ kind: 'invoice_payment', amountCents: 10_000 });
  });

  it('a BolePix paid on one rail and then on the other: a payment on its own, once; the same rail again is none', () => {
    const paidByPix: Invoice = { ...bolePix, status: 'PAID', paidRail: 'pix', paidAt: '2026-12-10T12:00:00.000Z' };
    expect(paymentVerdict(paidByPix, 'boleto', 10_000, '2026-12-11')).toEqual({ kind: 'other_rail_payment', rail: 'boleto', amountCents: 10_000 });
    expect(paymentVerdict(paidByPix, 'boleto', undefined, '2026-12-11')).toEqual({ kind: 'other_rail_payment', rail: 'boleto', amountCents: 10_203 });
    expect(paymentVerdict({ ...paidByPix, status: 'REFUNDED' }, 'boleto', 10_000, '2026-12-11')).toMatchObject({ kind: 'other_rail_payment' });
    expect(paymentVerdict(paidByPix, 'pix', 10_000, '2026-12-11')).toEqual({ kind: 'not_a_payment' });
    expect(paymentVerdict({ ...paidByPix, otherRailPayment: { rail: 'boleto', amountCents: 1, at: 'x' } }, 'boleto', 10_000, '2026-12-11')).toEqual({
      kind: 'not_a_payment',
    });
    // A plain invoice already paid: no other rail; the move table ignores it.
    expect(paymentVerdict({ ...anInvoice(), status: 'PAID', paidRail: 'pix' }, 'boleto', 2_500, '2026-12-11')).toEqual({ kind: 'not_a_payment' });
  });

  it('closes the rail that did not pay once PAID, both once CANCELED, none while PENDING', () => {
    expect(railsToClose(bolePix)).toEqual([]);
    expect(railsToClose({ ...bolePix, status: 'PAID', paidRail: 'pix' })).toEqual(['boleto']);
    expect(railsToClose({ ...bolePix, status: 'PAID', paidRail: 'boleto' })).toEqual(['pix']);
    expect(railsToClose({ ...bolePix, status: 'CANCELED' })).toEqual(['boleto', 'pix']);
    expect(railsToClose({ ...plainBoleto, status: 'CANCELED' })).toEqual(['boleto']);
    expect(railsToClose({ ...plainBoleto, status: 'PAID', paidRail: 'boleto' })).toEqual([]);
  });
});

import { randomBytes } from 'node:crypto';
import { INVOICE_TEXT_NAMES } from '../../../../shared/domain/invoice-texts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invoiceItem, invoiceOf } from '../../../../shared/adapters/dynamo/invoice-item';
import { hasRailUpkeep } from '../../../../shared/domain/bolepix';
import type { Invoice, NewInvoice } from '../../../../shared/domain/invoice';

/**
 * Every field of an invoice round-trips through the adapter (issue 45): what the creation writes, and
 * what the moves write after it (paid, canceled, refunded, the other rail's payment, the events, the
 * list), read back as the record. A field written and never read back fails here.
 */

const KEY = randomBytes(32);
const text = fc.string({ minLength: 1, maxLength: 40 });
const instant = fc.integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2030-12-31T00:00:00Z') }).map((ms) => new Date(ms).toISOString());
const date = instant.map((iso) => iso.slice(0, 10));
const cents = fc.integer({ min: 1, max: 99_999_999_999 });
const percent = fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 10_000);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const pixFields = fc.record(
  { txid: fc.stringMatching(/^[A-Za-z0-9]{26,35}$/), location: text, copy: text, qrPng: fc.uint8Array({ minLength: 1, maxLength: 16 }), provider: text },
  { requiredKeys: ['txid', 'location', 'copy'] },
);
const boletoFields = fc.record(
  { barcode: fc.stringMatching(/^\d{44}$/), digitable: fc.stringMatching(/^\d{47}$/), customerId: fc.integer({ min: 1, max: 2 ** 40 }), instructions: text },
  { requiredKeys: ['barcode', 'digitable', 'customerId'] },
);
const cardFields = fc.record({
  brand: fc.constantFrom('visa', 'mastercard', 'elo'),
  last4: fc.stringMatching(/^\d{4}$/),
  installments: fc.integer({ min: 1, max: 12 }),
  transactionId: text,
  transactionStatus: fc.integer({ min: 0, max: 9 }),
  description: text,
});
const late = fc.record({
  fineBasisPoints: fc.integer({ min: 0, max: 200 }),
  interestBasisPointsAMonth: fc.integer({ min: 0, max: 100 }),
  daysAfterDue: fc.integer({ min: 0, max: 60 }),
});

/** The method's part: a Pix charge (maybe awaiting its lookup), a boleto (maybe a BolePix, maybe with late rules), a card payment. */
const methodPart = fc.oneof(
  fc.record({ method: fc.constant('pix' as const), pix: pixFields, awaitsPixLookup: maybe(fc.constant(true as const)) }),
  fc.record({ method: fc.constant('boleto' as const), boleto: boletoFields, pix: maybe(pixFields), late: maybe(late) }),
  fc.record({ method: fc.constant('creditcard' as const), card: cardFields }),
);

const newInvoice: fc.Arbitrary<NewInvoice> = fc
  .record({
    accountId: fc.stringMatching(/^acct_[a-z0-9]{8,20}$/),
    invoiceId: fc.integer({ min: 1, max: 2 ** 50 }),
    reference: fc.stringMatching(/^INV-[A-Z0-9]{6}$/),
    merchantName: text,
    status: fc.constantFrom('PENDING' as const, 'PAID' as const),
    invoiceNo: text,
    itemName: text,
    quantity: fc.integer({ min: 1, max: 100_000 }),
    amountCents: cents,
    tax: percent,
    discount: percent,
    totalCents: cents,
    dueDate: date,
    // Every merchant text of the table (shared/domain/invoice-texts.ts), each present or not: a new row is in the round trip.
    texts: fc.record(Object.fromEntries(INVOICE_TEXT_NAMES.map((name) => [name, text])), { requiredKeys: [] }),
    payer: fc.record({ email: text, name: text, document: fc.stringMatching(/^\d{11}$/) }, { requiredKeys: [] }),
    createdAt: instant,
    paidAt: maybe(instant),
    checkoutReference: maybe(fc.stringMatching(/^CHK-[A-Z0-9]{8}$/)),
    provider: fc.constantFrom('simulated', 'apipix'),
    eventIds: maybe(fc.array(fc.stringMatching(/^evt_[a-z0-9]{8}$/), { maxLength: 4 })),
    part: methodPart,
  })
  .map(({ part, texts, ...invoice }) => ({ ...invoice, ...texts, ...part }) as NewInvoice);

/** What the moves write after the creation, each present or not (shared/adapters/dynamo/invoices.ts). */
const moved = fc.record(
  {
    status: fc.constantFrom('PAID' as const, 'CANCELED' as const, 'REFUNDED' as const),
    paidAt: instant,
    canceledAt: instant,
    refundedAt: instant,
    paidAfterCancel: fc.constant(true as const),
    unlisted: fc.constant(true as const),
    paidAmountCents: cents,
    paidRail: fc.constantFrom('pix' as const, 'boleto' as const, 'creditcard' as const),
    otherRailPayment: fc.record({ rail: fc.constantFrom('pix' as const, 'boleto' as const), amountCents: cents, at: instant }),
    version: fc.integer({ min: 2, max: 1_000 }),
    eventIds: fc.array(fc.stringMatching(/^evt_[a-z0-9]{8}$/), { minLength: 1, maxLength: 4 }),
  },
  { requiredKeys: [] },
);

/** The record as it should read back: the fields given, without the undefined ones, and what the indexes say. */
function expected(invoice: NewInvoice, after: Partial<Invoice>): Invoice {
  const { awaitsPixLookup, payer, ...fields } = invoice;
  const defined = <T extends object>(value: T) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
  return defined({
    ...fields,
    payer: defined(payer),
    version: 1,
    // The indexes it is in at creation: the Pix sweep's (a charge read back), the rails upkeep's (a BolePix, late rules).
    awaitsPixLookup: awaitsPixLookup && !hasRailUpkeep(invoice) ? true : undefined,
    inRailUpkeep: hasRailUpkeep(invoice) ? true : undefined,
    ...after,
  } as Invoice);
}

describe('an invoice round-trips through the adapter (every field written is read back)', () => {
  it('as created', () => {
    fc.assert(
      fc.property(newInvoice, (invoice) => {
        expect(invoiceOf(invoiceItem(invoice, KEY), KEY)).toEqual(expected(invoice, {}));
      }),
      { numRuns: 300 },
    );
  });

  it('with what its moves wrote after (as the move updates set them on the item)', () => {
    fc.assert(
      fc.property(newInvoice, moved, (invoice, after) => {
        const item = { ...invoiceItem(invoice, KEY), ...after };
        expect(invoiceOf(item, KEY)).toEqual(expected(invoice, after));
      }),
      { numRuns: 300 },
    );
  });

  it('the payer document only with the key (the moves read invoices without it)', () => {
    fc.assert(
      fc.property(newInvoice, (invoice) => {
        const { document: _sealed, ...payer } = invoice.payer;
        expect(invoiceOf(invoiceItem(invoice, KEY)).payer).toEqual(Object.fromEntries(Object.entries(payer).filter(([, v]) => v !== undefined)));
      }),
      { numRuns: 50 },
    );
  });
});

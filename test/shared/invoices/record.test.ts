import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidTxid } from '../../../shared/pix/txid';
import { newNumericId } from '../../../shared/ids';
import {
  invoiceIdForReference,
  newInvoiceReference,
  REFERENCE_SHAPE,
  referenceOfInvoiceId,
  referenceOfTxid,
  txidForReference,
} from '../../../shared/invoices/record';

describe('invoice references and Pix txids', () => {
  it('draws references INV- plus six characters without look-alikes', () => {
    for (let i = 0; i < 200; i += 1) {
      const reference = newInvoiceReference();
      expect(reference).toMatch(REFERENCE_SHAPE);
      expect(reference.slice(4)).not.toMatch(/[01IO]/);
    }
  });

  it('gives each reference a 32-character txid the Central Bank accepts, which leads back to the reference', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z2-9]{6}$/), (code) => {
        const reference = `INV-${code}`;
        const txid = txidForReference(reference);
        expect(txid).toHaveLength(32);
        expect(isValidTxid(txid)).toBe(true);
        expect(txid.startsWith(`INV${code}`)).toBe(true);
        expect(referenceOfTxid(txid)).toBe(reference);
      }),
    );
    expect(txidForReference('INV-ABCDEF')).not.toBe(txidForReference('INV-ABCDEF'));
  });

  it('reads no reference from a txid that is not one of ours', () => {
    for (const txid of [
      '',
      'short',
      'INVABCDEF',
      `XYZABCDEF${'a'.repeat(23)}`,
      `INVabcdef${'a'.repeat(23)}`,
      `INVABCDEF${'a'.repeat(24)}`,
      `INVABCDEF${'-'.repeat(23)}`,
    ]) {
      expect(referenceOfTxid(txid), txid).toBeUndefined();
    }
  });
});

describe('invoice ids carry their reference (issue 26)', () => {
  const references = fc.array(fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'), { minLength: 6, maxLength: 6 }).map((chars) => `INV-${chars.join('')}`);
  const lows = fc.integer({ min: 0, max: 2 ** 19 - 1 });

  it('an id has 16 digits starting with 1 (never a CPF, a CNPJ or a card number) and leads back to its reference', () => {
    fc.assert(
      fc.property(references, lows, (reference, low) => {
        const id = invoiceIdForReference(reference, low);
        expect(Number.isSafeInteger(id)).toBe(true);
        expect(String(id)).toMatch(/^1\d{15}$/);
        expect(referenceOfInvoiceId(id)).toBe(reference);
      }),
    );
    expect(invoiceIdForReference('INV-AAAAAA', 0)).toBe(1_000_000_000_000_000);
    expect(invoiceIdForReference('INV-999999', 2 ** 19 - 1)).toBe(10 ** 15 + 2 ** 49 - 1);
  });

  it('two references never share an id, and the low bits tell two ids of one reference apart', () => {
    expect(invoiceIdForReference('INV-AAAAAB', 0)).not.toBe(invoiceIdForReference('INV-AAAAAA', 0));
    expect(invoiceIdForReference('INV-AAAAAA', 2) - invoiceIdForReference('INV-AAAAAA', 1)).toBe(1);
    fc.assert(
      fc.property(references, references, lows, lows, (a, b, lowA, lowB) => {
        fc.pre(a !== b);
        expect(invoiceIdForReference(a, lowA)).not.toBe(invoiceIdForReference(b, lowB));
      }),
    );
  });

  it('draws its low bits at random and refuses a reference it cannot carry', () => {
    const reference = newInvoiceReference();
    const ids = new Set(Array.from({ length: 20 }, () => invoiceIdForReference(reference)));
    expect(ids.size).toBeGreaterThan(15);
    for (const id of ids) expect(referenceOfInvoiceId(id)).toBe(reference);
    for (const bad of ['INV-ABCDE', 'INV-ABCDEO', 'INV-ABCDE1', 'CHK-ABCDEF', 'INV-abcdef']) expect(() => invoiceIdForReference(bad)).toThrow();
    expect(() => invoiceIdForReference('INV-ABCDEF', -1)).toThrow();
    expect(() => invoiceIdForReference('INV-ABCDEF', 2 ** 19)).toThrow();
  });

  it('reads no reference from what is not such an id, a time-ordered id of before included', () => {
    for (const id of [0, -5, 1.5, Number.NaN, 10 ** 15 - 1, 10 ** 15 + 2 ** 49, Number.MAX_SAFE_INTEGER, newNumericId(new Date())]) {
      expect(referenceOfInvoiceId(id)).toBeUndefined();
    }
  });
});

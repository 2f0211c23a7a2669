import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newNumericId } from '../../../shared/platform/ids';
import {
  INVOICE_ID_LOW,
  invoiceIdForReference,
  REFERENCE_ALPHABET,
  REFERENCE_SHAPE,
  referenceOfInvoiceId,
  referenceOfTxid,
} from '../../../shared/domain/invoice-ids';

describe('the reference a Pix txid carries', () => {
  it('reads the reference from INV + its six characters + 23 alphanumerics', () => {
    expect(referenceOfTxid(`INVABCDEF${'a'.repeat(23)}`)).toBe('INV-ABCDEF');
    expect(referenceOfTxid(`INV23XYZ9${'Zz0'.repeat(7)}Zz`)).toBe('INV-23XYZ9');
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

  it('refuses a reference it cannot carry and low bits out of range', () => {
    expect(INVOICE_ID_LOW).toBe(2 ** 19);
    for (const bad of ['INV-ABCDE', 'INV-ABCDEO', 'INV-ABCDE1', 'CHK-ABCDEF', 'INV-abcdef']) expect(() => invoiceIdForReference(bad, 0)).toThrow();
    expect(() => invoiceIdForReference('INV-ABCDEF', -1)).toThrow();
    expect(() => invoiceIdForReference('INV-ABCDEF', 2 ** 19)).toThrow();
    expect(() => invoiceIdForReference('INV-ABCDEF', 1.5)).toThrow();
  });

  it('reads no reference from what is not such an id, a time-ordered id of before included', () => {
    for (const id of [0, -5, 1.5, Number.NaN, 10 ** 15 - 1, 10 ** 15 + 2 ** 49, Number.MAX_SAFE_INTEGER, newNumericId(new Date())]) {
      expect(referenceOfInvoiceId(id)).toBeUndefined();
    }
  });
});

describe('the reference alphabet', () => {
  it('has 32 characters without look-alikes, and the reference shape takes them', () => {
    expect(REFERENCE_ALPHABET).toHaveLength(32);
    expect(new Set(REFERENCE_ALPHABET).size).toBe(32);
    expect(REFERENCE_ALPHABET).not.toMatch(/[01IO]/);
    expect(`INV-${REFERENCE_ALPHABET.slice(0, 6)}`).toMatch(REFERENCE_SHAPE);
  });
});

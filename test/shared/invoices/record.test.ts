import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidTxid } from '../../../shared/pix/txid';
import { newInvoiceReference, REFERENCE_SHAPE, referenceOfTxid, txidForReference } from '../../../shared/invoices/record';

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

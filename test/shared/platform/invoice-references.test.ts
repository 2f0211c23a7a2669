import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidTxid } from '../../../shared/pix/txid';
import { REFERENCE_SHAPE, referenceOfInvoiceId, referenceOfTxid } from '../../../shared/domain/invoice-ids';
import { invoiceIdDraw, newInvoiceReference, txidForReference } from '../../../shared/platform/invoice-references';

/** The draws (randomness) of an invoice's ids; the rules they follow are tested in test/shared/domain/invoice-ids.test.ts. */
describe('invoice references, ids and Pix txids drawn', () => {
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

  it("draws an id's low bits at random, and the id leads back to its reference", () => {
    const reference = newInvoiceReference();
    const ids = new Set(Array.from({ length: 20 }, () => invoiceIdDraw.numericId(reference)));
    expect(ids.size).toBeGreaterThan(15);
    for (const id of ids) expect(referenceOfInvoiceId(id)).toBe(reference);
  });
});

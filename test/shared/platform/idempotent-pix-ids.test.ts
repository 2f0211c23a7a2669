import { describe, expect, it } from 'vitest';
import { REFERENCE_SHAPE, referenceOfTxid } from '../../../shared/domain/invoice-ids';
import { idempotentPixIds } from '../../../shared/platform/invoice-references';
import { isValidTxid } from '../../../shared/pix/txid';

const TXID_SHAPE = /^INV[A-Z0-9]{6}[A-Za-z0-9]{23}$/;

describe('idempotentPixIds', () => {
  it('is deterministic per (account, key)', () => {
    const first = idempotentPixIds('acc_123', 'order-42');
    expect(idempotentPixIds('acc_123', 'order-42')).toEqual(first);
    expect(idempotentPixIds(String('acc_' + '123'), 'order-' + String(42))).toEqual(first);
  });

  it('differs across accounts and across keys', () => {
    const base = idempotentPixIds('acc_123', 'order-42');
    for (const other of [
      idempotentPixIds('acc_124', 'order-42'),
      idempotentPixIds('acc_123', 'order-43'),
      idempotentPixIds('acc_123', 'order-42 '),
      idempotentPixIds('acc_123', 'ORDER-42'),
    ]) {
      expect(other.txid).not.toBe(base.txid);
      expect(other.reference).not.toBe(base.reference);
    }
  });

  it('spreads over many keys without collisions of txids (and few of references)', () => {
    const txids = new Set<string>();
    const references = new Set<string>();
    for (let i = 0; i < 2000; i += 1) {
      const ids = idempotentPixIds('acc_123', `key-${i}`);
      txids.add(ids.txid);
      references.add(ids.reference);
    }
    expect(txids.size).toBe(2000);
    // 32^6 ≈ 1.07e9 references: 2000 draws essentially never collide.
    expect(references.size).toBeGreaterThanOrEqual(1998);
  });

  it('gives a reference of the invoice shape, without look-alike characters', () => {
    for (let i = 0; i < 500; i += 1) {
      const { reference } = idempotentPixIds(`acc_${i % 7}`, `key-${i}`);
      expect(reference).toMatch(REFERENCE_SHAPE);
      expect(reference.slice(4)).not.toMatch(/[01IO]/);
    }
  });

  it('gives a 32-character txid the Central Bank accepts, which leads back to the reference', () => {
    for (let i = 0; i < 500; i += 1) {
      const { reference, txid } = idempotentPixIds(`acc_${i % 7}`, `key-${i}`);
      expect(txid).toMatch(TXID_SHAPE);
      expect(txid).toHaveLength(32);
      expect(isValidTxid(txid)).toBe(true);
      expect(txid.startsWith(reference.replace('-', ''))).toBe(true);
      expect(referenceOfTxid(txid)).toBe(reference);
    }
  });

  it('accepts any text as a key', () => {
    for (const key of ['', ' ', 'ç'.repeat(300), '🙂', 'a:b:c']) {
      const { reference, txid } = idempotentPixIds('acc_1', key);
      expect(reference, key).toMatch(REFERENCE_SHAPE);
      expect(referenceOfTxid(txid), key).toBe(reference);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { newCheckoutReference, saleKey } from '../../../../shared/app/checkout/checkout-ids';
import { CHECKOUT_REFERENCE_SHAPE } from '../../../../shared/domain/checkout-record';

const KEY = Buffer.alloc(32, 7);

describe("a checkout's reference and sale key", () => {
  it('draws CHK- and 8 characters without look-alikes', () => {
    const drawn = new Set(Array.from({ length: 200 }, newCheckoutReference));
    expect(drawn.size).toBe(200);
    for (const reference of drawn) {
      expect(reference).toMatch(CHECKOUT_REFERENCE_SHAPE);
      expect(reference.slice(4)).not.toMatch(/[01IO]/);
    }
  });

  it('keys a sale by its fields, in any order, under the key: another value or key is another sale', () => {
    const sale = { amount: 4990, quantity: 2, email: 'ana@example.com', product_name: undefined };
    const key = saleKey(sale, KEY);
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(saleKey({ product_name: undefined, email: 'ana@example.com', quantity: 2, amount: 4990 }, KEY)).toBe(key);
    expect(saleKey({ ...sale, quantity: 3 }, KEY)).not.toBe(key);
    expect(saleKey({ ...sale, product_name: 'x' }, KEY)).not.toBe(key);
    expect(saleKey(sale, Buffer.alloc(32, 8))).not.toBe(key);
    expect(key).not.toContain('ana');
  });
});

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint } from '../../../shared/idempotency/fingerprint';

const body = {
  amount: '100.00',
  customer: { name: 'Maria', address: { city: 'Recife', zip: '50000-000' } },
  items: [
    { name: 'a', qty: 1 },
    { name: 'b', qty: 2 },
  ],
};
const reordered = {
  items: [
    { qty: 1, name: 'a' },
    { qty: 2, name: 'b' },
  ],
  customer: { address: { zip: '50000-000', city: 'Recife' }, name: 'Maria' },
  amount: '100.00',
};

describe('canonicalJson', () => {
  it('sorts object keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('is valid JSON equal in value to the input', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('drops undefined properties as JSON.stringify does', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
  });
});

describe('requestFingerprint', () => {
  it('is a SHA-256 hex digest of the route id and the canonical body', () => {
    const expected = createHash('sha256').update('CreatePix\n{"a":1,"b":[2,1]}').digest('hex');
    expect(requestFingerprint('CreatePix', { b: [2, 1], a: 1 })).toBe(expected);
  });

  it('does not depend on key order, nested levels included', () => {
    expect(requestFingerprint('CreatePix', reordered)).toBe(requestFingerprint('CreatePix', body));
  });

  it('does not depend on key order for any JSON object (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const reversed = Object.fromEntries(Object.entries(value).reverse());
        expect(requestFingerprint('R', reversed)).toBe(requestFingerprint('R', value));
      }),
    );
  });

  it('differs for another route id with the same body', () => {
    expect(requestFingerprint('CreateBoleto', body)).not.toBe(requestFingerprint('CreatePix', body));
  });

  it('differs for another body', () => {
    expect(requestFingerprint('CreatePix', { ...body, amount: '100.01' })).not.toBe(requestFingerprint('CreatePix', body));
    expect(requestFingerprint('CreatePix', { ...body, customer: { ...body.customer, address: { city: 'Recife', zip: '50000-001' } } })).not.toBe(
      requestFingerprint('CreatePix', body),
    );
    expect(requestFingerprint('CreatePix', { amount: 100 })).not.toBe(requestFingerprint('CreatePix', { amount: '100' }));
  });

  it('treats array order as significant', () => {
    expect(requestFingerprint('CreatePix', { ...body, items: [...body.items].reverse() })).not.toBe(requestFingerprint('CreatePix', body));
    expect(requestFingerprint('R', [1, 2])).not.toBe(requestFingerprint('R', [2, 1]));
  });

  it('treats an absent body as null', () => {
    expect(requestFingerprint('GetBalance', undefined)).toBe(requestFingerprint('GetBalance', null));
    expect(requestFingerprint('GetBalance', undefined)).toBe(createHash('sha256').update('GetBalance\nnull').digest('hex'));
  });
});

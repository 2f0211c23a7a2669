import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint } from '../../../shared/domain/request-fingerprint';

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

const KEY = Buffer.alloc(32, 7);

describe('requestFingerprint', () => {
  it('is an HMAC-SHA256 (keyed: a card number in a body cannot be guessed back) of the route id and the canonical body', () => {
    const expected = createHmac('sha256', KEY).update('CreatePix\n{"a":1,"b":[2,1]}').digest('hex');
    expect(requestFingerprint('CreatePix', { b: [2, 1], a: 1 }, KEY)).toBe(expected);
  });

  it('does not depend on key order, nested levels included', () => {
    expect(requestFingerprint('CreatePix', reordered, KEY)).toBe(requestFingerprint('CreatePix', body, KEY));
  });

  it('does not depend on key order for any JSON object (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const reversed = Object.fromEntries(Object.entries(value).reverse());
        expect(requestFingerprint('R', reversed, KEY)).toBe(requestFingerprint('R', value, KEY));
      }),
    );
  });

  it('differs for another route id with the same body', () => {
    expect(requestFingerprint('CreateBoleto', body, KEY)).not.toBe(requestFingerprint('CreatePix', body, KEY));
  });

  it('differs for another body', () => {
    expect(requestFingerprint('CreatePix', { ...body, amount: '100.01' }, KEY)).not.toBe(requestFingerprint('CreatePix', body, KEY));
    expect(requestFingerprint('CreatePix', { ...body, customer: { ...body.customer, address: { city: 'Recife', zip: '50000-001' } } }, KEY)).not.toBe(
      requestFingerprint('CreatePix', body, KEY),
    );
    expect(requestFingerprint('CreatePix', { amount: 100 }, KEY)).not.toBe(requestFingerprint('CreatePix', { amount: '100' }, KEY));
  });

  it('treats array order as significant', () => {
    expect(requestFingerprint('CreatePix', { ...body, items: [...body.items].reverse() }, KEY)).not.toBe(requestFingerprint('CreatePix', body, KEY));
    expect(requestFingerprint('R', [1, 2], KEY)).not.toBe(requestFingerprint('R', [2, 1], KEY));
  });

  it('treats an absent body as null', () => {
    expect(requestFingerprint('GetBalance', undefined, KEY)).toBe(requestFingerprint('GetBalance', null, KEY));
    expect(requestFingerprint('GetBalance', undefined, KEY)).toBe(createHmac('sha256', KEY).update('GetBalance\nnull').digest('hex'));
  });
});

import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalForm, signForm, verifyFormSignature } from '../../../../shared/app/checkout/form-signature';

const form = {
  tx_ref: 'order-42',
  public_key: 'PUB-abc',
  amount: '10.50',
  quantity: '2',
  title: 'Café & pão',
  callback_url: 'https://shop.example/back?x=1&y=2',
  product_name: '',
};
const secret = 'cks_test_secret';

const fieldName = fc.stringMatching(/^[a-z_]{1,12}$/).filter((name) => name !== 'signature' && name !== 'zzz_extra');
const fieldsArb = fc.dictionary(fieldName, fc.string({ maxLength: 30 }), { minKeys: 1, maxKeys: 8 });

describe('canonicalForm', () => {
  it('sorts by name, leaves out signature, keeps empty values and encodes with encodeURIComponent', () => {
    expect(canonicalForm({ ...form, signature: 'ff' })).toBe(
      'amount=10.50&callback_url=https%3A%2F%2Fshop.example%2Fback%3Fx%3D1%26y%3D2&product_name=&public_key=PUB-abc&quantity=2&title=Caf%C3%A9%20%26%20p%C3%A3o&tx_ref=order-42',
    );
  });

  it('does not depend on the order the fields came in', () => {
    fc.assert(
      fc.property(fieldsArb, (fields) => {
        const reversed = Object.fromEntries(Object.entries(fields).reverse());
        expect(canonicalForm(reversed)).toBe(canonicalForm(fields));
      }),
    );
  });
});

describe('signForm', () => {
  it('is the hex HMAC-SHA256 of the canonical string keyed with the secret', () => {
    const expected = createHmac('sha256', secret).update(canonicalForm(form)).digest('hex');
    expect(signForm(form, secret)).toBe(expected);
    expect(signForm(form, secret)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes when any field value changes, or a field is added or removed', () => {
    fc.assert(
      fc.property(fieldsArb, fc.nat(), fc.string({ maxLength: 30 }), (fields, pick, newValue) => {
        const names = Object.keys(fields);
        const name = names[pick % names.length] as string;
        fc.pre(fields[name] !== newValue);
        const base = signForm(fields, secret);
        expect(signForm({ ...fields, [name]: newValue }, secret)).not.toBe(base);
        const { [name]: _removed, ...without } = fields;
        expect(signForm(without, secret)).not.toBe(base);
        expect(signForm({ ...fields, zzz_extra: '' }, secret)).not.toBe(base);
      }),
    );
  });

  it('changes with the secret and not with the signature field', () => {
    expect(signForm(form, 'other')).not.toBe(signForm(form, secret));
    expect(signForm({ ...form, signature: 'anything' }, secret)).toBe(signForm(form, secret));
  });

  it('cannot be fooled by moving an & or = between names and values', () => {
    expect(signForm({ a: '1&b=2' }, secret)).not.toBe(signForm({ a: '1', b: '2' }, secret));
  });
});

describe('verifyFormSignature', () => {
  it('accepts a form signed with its secret (upper-case hex too)', () => {
    const signature = signForm(form, secret);
    expect(verifyFormSignature({ ...form, signature }, secret)).toBe(true);
    expect(verifyFormSignature({ ...form, signature: signature.toUpperCase() }, secret)).toBe(true);
  });

  it('refuses a missing, malformed, wrong-secret or altered signature', () => {
    const signature = signForm(form, secret);
    expect(verifyFormSignature(form, secret)).toBe(false);
    expect(verifyFormSignature({ ...form, signature: signature.slice(0, 63) }, secret)).toBe(false);
    expect(verifyFormSignature({ ...form, signature: `${signature}00` }, secret)).toBe(false);
    expect(verifyFormSignature({ ...form, signature: 'z'.repeat(64) }, secret)).toBe(false);
    expect(verifyFormSignature({ ...form, signature }, 'other')).toBe(false);
    expect(verifyFormSignature({ ...form, amount: '0.50', signature }, secret)).toBe(false);
    expect(verifyFormSignature({ ...form, quantity: '20', signature }, secret)).toBe(false);
  });

  it('refuses any single-field alteration of a signed form', () => {
    fc.assert(
      fc.property(fieldsArb, fc.nat(), fc.string({ maxLength: 30 }), (fields, pick, newValue) => {
        const names = Object.keys(fields);
        const name = names[pick % names.length] as string;
        fc.pre(fields[name] !== newValue);
        const signature = signForm(fields, secret);
        expect(verifyFormSignature({ ...fields, signature }, secret)).toBe(true);
        expect(verifyFormSignature({ ...fields, [name]: newValue, signature }, secret)).toBe(false);
      }),
    );
  });
});

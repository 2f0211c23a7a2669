import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidTxid, newTxid } from '../../../shared/pix/txid';

describe('newTxid', () => {
  it('is 32 characters of [a-zA-Z0-9] and accepted by isValidTxid', () => {
    for (let i = 0; i < 200; i += 1) {
      const txid = newTxid();
      expect(txid).toMatch(/^[a-zA-Z0-9]{32}$/);
      expect(isValidTxid(txid)).toBe(true);
    }
  });

  it('is random: no repeats, and all three character classes appear', () => {
    const txids = Array.from({ length: 2000 }, () => newTxid());
    expect(new Set(txids).size).toBe(txids.length);
    const all = txids.join('');
    expect(all).toMatch(/[a-z]/);
    expect(all).toMatch(/[A-Z]/);
    expect(all).toMatch(/[0-9]/);
    expect(new Set(all).size).toBe(62);
  });
});

describe('isValidTxid', () => {
  it.each([
    ['a'.repeat(26), true],
    ['Z9'.repeat(17) + 'x', true], // 35
    ['a'.repeat(25), false],
    ['a'.repeat(36), false],
    ['', false],
    [`${'a'.repeat(29)}-`, false],
    [`${'a'.repeat(29)} `, false],
    [`${'a'.repeat(29)}ç`, false],
    [`${'a'.repeat(29)}_`, false],
    [`${'a'.repeat(30)}\n`, false],
  ])('%j → %s', (text, valid) => {
    expect(isValidTxid(text)).toBe(valid);
  });

  it('property: accepts exactly the alphanumeric strings of 26 to 35 characters', () => {
    const alnum = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
    fc.assert(
      fc.property(fc.string({ unit: alnum, minLength: 0, maxLength: 40 }), (text) => {
        expect(isValidTxid(text)).toBe(text.length >= 26 && text.length <= 35);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: alnum, minLength: 26, maxLength: 34 }), fc.constantFrom(...'-_ .:/ãé*'), fc.nat(), (text, bad, at) => {
        const i = at % (text.length + 1);
        expect(isValidTxid(text.slice(0, i) + bad + text.slice(i))).toBe(false);
      }),
    );
  });
});

import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seal, unseal } from '../../../../shared/platform/crypto/personal-data';

const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 8);
const AD = 'customer:acct_test:1';

/** Flips one bit of the base64url part `index` of a sealed value (0 version, 1 iv, 2 ciphertext, 3 tag). */
function flipBit(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[index] ?? '', 'base64url');
  bytes[0] = (bytes[0] ?? 0) ^ 0x01;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

describe('seal and unseal', () => {
  it('round-trips a taxpayer document', () => {
    expect(unseal(seal('52998224725', KEY, AD), KEY, AD)).toBe('52998224725');
  });

  it('round-trips the empty string', () => {
    expect(unseal(seal('', KEY, AD), KEY, AD)).toBe('');
  });

  it('round-trips any unicode text under any key and associated data', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        (plaintext, key, associatedData) => {
          const keyBuffer = Buffer.from(key);
          expect(unseal(seal(plaintext, keyBuffer, associatedData), keyBuffer, associatedData)).toBe(plaintext);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('has the shape v1.<iv>.<ciphertext>.<tag>: 12-byte IV, 16-byte tag, ciphertext as long as the UTF-8 plaintext', () => {
    const plaintext = 'José da Silva ção';
    const [version, iv, ciphertext, tag, ...rest] = seal(plaintext, KEY, AD).split('.');
    expect(version).toBe('v1');
    expect(rest).toEqual([]);
    expect(Buffer.from(iv ?? '', 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag ?? '', 'base64url')).toHaveLength(16);
    expect(Buffer.from(ciphertext ?? '', 'base64url')).toHaveLength(Buffer.byteLength(plaintext, 'utf8'));
    for (const part of [iv, ciphertext, tag]) expect(part).toMatch(/^[A-Za-z0-9_-]*$/);
  });

  it('gives two different sealed values for the same input (random IV)', () => {
    const first = seal('52998224725', KEY, AD);
    const second = seal('52998224725', KEY, AD);
    expect(first).not.toBe(second);
    expect(first.split('.')[1]).not.toBe(second.split('.')[1]);
  });

  it('does not contain the plaintext', () => {
    const sealed = seal('52998224725', KEY, AD);
    expect(sealed).not.toContain('52998224725');
    expect(sealed).not.toContain(Buffer.from('52998224725').toString('base64url'));
    expect(sealed).not.toContain(Buffer.from('52998224725').toString('hex'));
  });

  it('throws under another key', () => {
    const sealed = seal('52998224725', KEY, AD);
    expect(() => unseal(sealed, OTHER_KEY, AD)).toThrow();
    expect(() => unseal(sealed, randomBytes(32), AD)).toThrow();
  });

  it('throws under other associated data (a value moved to another item)', () => {
    const sealed = seal('52998224725', KEY, AD);
    expect(() => unseal(sealed, KEY, 'customer:acct_test:2')).toThrow();
    expect(() => unseal(sealed, KEY, '')).toThrow();
  });

  it('throws when the IV, the ciphertext or the tag was tampered with', () => {
    const sealed = seal('52998224725', KEY, AD);
    for (const index of [1, 2, 3]) {
      const tampered = flipBit(sealed, index);
      expect(tampered).not.toBe(sealed);
      expect(() => unseal(tampered, KEY, AD), `part ${index}`).toThrow();
    }
  });

  it('throws when the tag is missing', () => {
    const [version, iv, ciphertext] = seal('52998224725', KEY, AD).split('.');
    expect(() => unseal([version, iv, ciphertext].join('.'), KEY, AD)).toThrow();
    expect(() => unseal([version, iv, ciphertext, ''].join('.'), KEY, AD)).toThrow();
  });

  // BUG (shared/platform/crypto/personal-data.ts, unseal): createDecipheriv is called without authTagLength, so
  // Node accepts a GCM tag truncated to 4, 8, 12..15 bytes and compares only that prefix: a 4-byte prefix
  // of the real tag unseals, cutting forgery resistance to 2^-32. seal always writes 16 bytes.
  it.each([4, 8, 12, 15])('throws when the tag is truncated to its first %i bytes', (length) => {
    const [version, iv, ciphertext, tag] = seal('52998224725', KEY, AD).split('.');
    const shortTag = Buffer.from(tag ?? '', 'base64url')
      .subarray(0, length)
      .toString('base64url');
    expect(() => unseal([version, iv, ciphertext, shortTag].join('.'), KEY, AD)).toThrow();
  });

  it('throws on a value that is not sealed, or of another version', () => {
    const sealed = seal('52998224725', KEY, AD);
    expect(() => unseal('52998224725', KEY, AD)).toThrow();
    expect(() => unseal('', KEY, AD)).toThrow();
    expect(() => unseal(sealed.replace(/^v1\./, 'v2.'), KEY, AD)).toThrow();
  });
});

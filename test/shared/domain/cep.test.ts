import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeCep } from '../../../shared/domain/cep';

describe('normalizeCep', () => {
  it('accepts 8 digits with or without the hyphen', () => {
    expect(normalizeCep('01310-100')).toBe('01310100');
    expect(normalizeCep('01310100')).toBe('01310100');
  });

  it('ignores surrounding spaces', () => {
    expect(normalizeCep(' 01310-100 ')).toBe('01310100');
  });

  it.each(['0131-0100', '1234567', '123456789', 'abcdefgh', '', '01310--100', '01310 100', '01.310-100'])('rejects %j', (text) => {
    expect(normalizeCep(text)).toBeNull();
  });

  it('turns any 8 digits, hyphenated after the fifth or not, into the same 8 digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{8}$/), (digits) => {
        expect(normalizeCep(digits)).toBe(digits);
        expect(normalizeCep(`${digits.slice(0, 5)}-${digits.slice(5)}`)).toBe(digits);
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentTypeOf, isValidDocument, normalizeDocument } from '../../../../shared/domain/schemas/documents';

/** CPF check digits (Receita Federal): weights 10..2 then 11..2; digit = 0 if remainder < 2 else 11 - remainder. */
function cpfCheckDigits(base: string): string {
  const digit = (digits: string) => {
    const sum = [...digits].reduce((acc, ch, i) => acc + Number(ch) * (digits.length + 1 - i), 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const first = digit(base);
  return `${first}${digit(`${base}${first}`)}`;
}

/** CNPJ check digits, alphanumeric included: value = ASCII code - 48, weights 2..9 cycling from the right. */
function cnpjCheckDigits(base: string): string {
  const digit = (chars: string) => {
    let sum = 0;
    for (let i = 0; i < chars.length; i += 1) {
      const fromRight = chars.length - 1 - i;
      sum += (chars.charCodeAt(i) - 48) * (2 + (fromRight % 8));
    }
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const first = digit(base);
  return `${first}${digit(`${base}${first}`)}`;
}

const otherDigit = (d: string) => String((Number(d) + 1) % 10);

describe('the test helpers (checked against published examples)', () => {
  it('compute the check digits of known documents', () => {
    expect(cpfCheckDigits('529982247')).toBe('25');
    expect(cnpjCheckDigits('112223330001')).toBe('81');
    // Receita Federal's example of an alphanumeric CNPJ: 12.ABC.345/01DE-35.
    expect(cnpjCheckDigits('12ABC34501DE')).toBe('35');
  });
});

describe('normalizeDocument', () => {
  it('strips dots, hyphens, slashes and spaces', () => {
    expect(normalizeDocument('529.982.247-25')).toBe('52998224725');
    expect(normalizeDocument('11.222.333/0001-81')).toBe('11222333000181');
    expect(normalizeDocument(' 529 982 247 25 ')).toBe('52998224725');
  });

  it('upper-cases the letters of an alphanumeric CNPJ', () => {
    expect(normalizeDocument('12.abc.345/01de-35')).toBe('12ABC34501DE35');
  });

  it('leaves bare digits alone', () => {
    expect(normalizeDocument('52998224725')).toBe('52998224725');
  });
});

describe('isValidDocument: CPF', () => {
  it('accepts a CPF with valid check digits, with or without punctuation', () => {
    expect(isValidDocument('529.982.247-25', 'CPF')).toBe(true);
    expect(isValidDocument('52998224725', 'CPF')).toBe(true);
  });

  it('rejects wrong check digits', () => {
    expect(isValidDocument('529.982.247-24', 'CPF')).toBe(false);
    expect(isValidDocument('529.982.247-35', 'CPF')).toBe(false);
    expect(isValidDocument('529.982.248-25', 'CPF')).toBe(false);
  });

  it('rejects the same digit repeated, though its check digits add up', () => {
    expect(cpfCheckDigits('111111111')).toBe('11');
    expect(isValidDocument('111.111.111-11', 'CPF')).toBe(false);
    for (let d = 0; d <= 9; d += 1) expect(isValidDocument(String(d).repeat(11), 'CPF'), String(d)).toBe(false);
  });

  it('rejects the wrong length', () => {
    expect(isValidDocument('529.982.247-2', 'CPF')).toBe(false);
    expect(isValidDocument('5299822472', 'CPF')).toBe(false);
    expect(isValidDocument('529982247250', 'CPF')).toBe(false);
    expect(isValidDocument('', 'CPF')).toBe(false);
  });

  it('rejects letters', () => {
    expect(isValidDocument('5299822472A', 'CPF')).toBe(false);
  });

  it('rejects a valid CNPJ given as CPF', () => {
    expect(isValidDocument('11.222.333/0001-81', 'CPF')).toBe(false);
  });

  it('accepts any 9-digit base with the computed check digits; changing one check digit breaks it', () => {
    const base = fc.stringMatching(/^\d{9}$/).filter((b) => !/^(\d)\1{8}$/.test(b) && b !== '123456789');
    fc.assert(
      fc.property(base, fc.integer({ min: 0, max: 1 }), (b, position) => {
        const check = cpfCheckDigits(b);
        const valid = `${b}${check}`;
        expect(isValidDocument(valid, 'CPF')).toBe(true);
        expect(isValidDocument(`${valid.slice(0, 3)}.${valid.slice(3, 6)}.${valid.slice(6, 9)}-${check}`, 'CPF')).toBe(true);
        const tamperedCheck = position === 0 ? `${otherDigit(check[0] ?? '0')}${check[1]}` : `${check[0]}${otherDigit(check[1] ?? '0')}`;
        expect(isValidDocument(`${b}${tamperedCheck}`, 'CPF')).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe('isValidDocument: CNPJ', () => {
  it('accepts a numeric CNPJ with valid check digits, with or without punctuation', () => {
    expect(isValidDocument('11.222.333/0001-81', 'CNPJ')).toBe(true);
    expect(isValidDocument('11222333000181', 'CNPJ')).toBe(true);
  });

  it('rejects wrong check digits', () => {
    expect(isValidDocument('11.222.333/0001-80', 'CNPJ')).toBe(false);
    expect(isValidDocument('11.222.333/0001-91', 'CNPJ')).toBe(false);
  });

  it('accepts an alphanumeric CNPJ whose check digits are computed with the official algorithm', () => {
    const base = 'A1B2C3D4E5F6';
    const valid = `${base}${cnpjCheckDigits(base)}`;
    expect(isValidDocument(valid, 'CNPJ')).toBe(true);
    expect(isValidDocument(`${valid.slice(0, 2)}.${valid.slice(2, 5)}.${valid.slice(5, 8)}/${valid.slice(8, 12)}-${valid.slice(12)}`, 'CNPJ')).toBe(true);
    expect(isValidDocument('12.ABC.345/01DE-35', 'CNPJ')).toBe(true);
    expect(isValidDocument('12.abc.345/01de-35', 'CNPJ')).toBe(true);
  });

  it('rejects a tampered alphanumeric CNPJ', () => {
    expect(isValidDocument('12.ABC.345/01DE-36', 'CNPJ')).toBe(false);
    expect(isValidDocument('12.ABC.345/01DE-45', 'CNPJ')).toBe(false);
    // A letter changed in the base: its own check digits differ from 35, so 35 no longer fits.
    expect(cnpjCheckDigits('12ABD34501DE')).not.toBe('35');
    expect(isValidDocument('12.ABD.345/01DE-35', 'CNPJ')).toBe(false);
  });

  it('rejects letters in the check digits', () => {
    expect(isValidDocument('12ABC34501DE3A', 'CNPJ')).toBe(false);
  });

  it('accepts random alphanumeric bases with the computed check digits and rejects a changed check digit', () => {
    const base = fc.stringMatching(/^[0-9A-Z]{12}$/).filter((b) => !/^(\d)\1{11}$/.test(b));
    fc.assert(
      fc.property(base, (b) => {
        const check = cnpjCheckDigits(b);
        expect(isValidDocument(`${b}${check}`, 'CNPJ')).toBe(true);
        expect(isValidDocument(`${b}${check[0]}${otherDigit(check[1] ?? '0')}`, 'CNPJ')).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('rejects the wrong length', () => {
    expect(isValidDocument('1122233300018', 'CNPJ')).toBe(false);
    expect(isValidDocument('112223330001810', 'CNPJ')).toBe(false);
  });

  it('rejects a valid CPF given as CNPJ', () => {
    expect(isValidDocument('529.982.247-25', 'CNPJ')).toBe(false);
    expect(isValidDocument('52998224725', 'CNPJ')).toBe(false);
  });
});

describe('documentTypeOf', () => {
  it('is CPF for 11 characters and CNPJ for 14, punctuation ignored', () => {
    expect(documentTypeOf('529.982.247-25')).toBe('CPF');
    expect(documentTypeOf('52998224725')).toBe('CPF');
    expect(documentTypeOf('11.222.333/0001-81')).toBe('CNPJ');
    expect(documentTypeOf('12.ABC.345/01DE-35')).toBe('CNPJ');
  });

  it('is undefined for other lengths', () => {
    expect(documentTypeOf('')).toBeUndefined();
    expect(documentTypeOf('1234567890')).toBeUndefined();
    expect(documentTypeOf('123456789012')).toBeUndefined();
    expect(documentTypeOf('123456789012345')).toBeUndefined();
  });
});

import { codBarras2LinhaDigitavel, identificarDataComNovoFator2025, identificarValor, linhaDigitavel2CodBarras, validarBoleto } from '@mrmgomes/boleto-utils';
import { boletoBancarioCodigoBarras, boletoBancarioLinhaDigitavel } from 'boleto-brasileiro-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_BOLETO_CENTS,
  barcodeFromDigitable,
  buildBarcode,
  digitableLine,
  dueDateFactor,
  dueDateOfFactor,
  formatDigitableLine,
  lastEncodableDueDate,
} from '../../../shared/domain/boleto-barcode';

// Independent check-digit arithmetic, written from the FEBRABAN rules rather than from the module.

/** Sum of digit × weight, weights 2,3,…,9,2,3,… from the rightmost digit. */
function mod11Sum(digits: string): number {
  const weights = [2, 3, 4, 5, 6, 7, 8, 9];
  return [...digits].reverse().reduce((sum, digit, i) => sum + Number(digit) * (weights[i % 8] ?? 0), 0);
}

/** FEBRABAN bank boleto general check digit: 11 − (sum mod 11), with 0, 10 and 11 becoming 1. */
function expectedGeneralDv(barcode: string): number {
  const dv = 11 - (mod11Sum(barcode.slice(0, 4) + barcode.slice(5)) % 11);
  return [0, 10, 11].includes(dv) ? 1 : dv;
}

/** Modulo 10 with weights 2,1,2,1… from the right, summing the digits of each product. */
function expectedMod10(digits: string): number {
  const sum = [...digits].reverse().reduce((total, digit, i) => {
    const product = Number(digit) * (i % 2 === 0 ? 2 : 1);
    return total + Math.floor(product / 10) + (product % 10);
  }, 0);
  return sum % 10 === 0 ? 0 : 10 - (sum % 10);
}

const DAY_MS = 86_400_000;
/** 'YYYY-MM-DD' of 2025-02-22 plus `days` days (UTC). */
function plusDays(days: number): string {
  return new Date(Date.UTC(2025, 1, 22) + days * DAY_MS).toISOString().slice(0, 10);
}

describe('dueDateFactor', () => {
  it.each([
    ['2025-02-22', 1000],
    ['2025-02-23', 1001],
    ['2025-03-01', 1007],
    ['2025-12-31', 1312],
    ['2026-05-15', 1447],
    ['2049-10-13', 9999], // 8999 days after 2025-02-22 (computed by hand with Python's datetime)
    ['2049-10-14', 1000], // wraps
    ['2049-10-15', 1001],
  ])('%s → %d', (date, factor) => {
    expect(dueDateFactor(date)).toBe(factor);
  });

  it('reaches 9999 8999 days after 2025-02-22 and restarts at 1000 the next day, and again 9000 days later', () => {
    expect(plusDays(8999)).toBe('2049-10-13');
    expect(dueDateFactor(plusDays(8999))).toBe(9999);
    expect(dueDateFactor(plusDays(9000))).toBe(1000);
    expect(dueDateFactor(plusDays(17_999))).toBe(9999);
    expect(dueDateFactor(plusDays(18_000))).toBe(1000);
  });

  it('continues the old count (days since 1997-10-07) minus 9000 within the current cycle', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8999 }), (days) => {
        const date = plusDays(days);
        const sinceOldBase = (Date.parse(`${date}T00:00:00Z`) - Date.UTC(1997, 9, 7)) / DAY_MS;
        expect(dueDateFactor(date)).toBe(sinceOldBase - 9000);
      }),
    );
  });

  it.each(['2025-02-21', '1997-10-07', '2000-01-01'])('throws for %s, before the current cycle', (date) => {
    expect(() => dueDateFactor(date)).toThrow();
  });

  it.each(['2025-02-30', '2025-13-01', '2025-2-23', '23/02/2025', '2025-02-23T00:00:00Z', '', '2025-00-10'])('throws for the malformed date %j', (date) => {
    expect(() => dueDateFactor(date)).toThrow();
  });
});

describe('buildBarcode', () => {
  it('builds hand-computed barcodes', () => {
    // bank 001, factor 1000, R$ 100,00: weighted sum mod 11 = 2 → DV 9
    expect(buildBarcode({ bankCode: '001', amountCents: 10_000, dueDate: '2025-02-22', freeField: '0000001234567890123456789' })).toBe(
      '00199100000000100000000001234567890123456789',
    );
    // sum mod 11 = 1 → 11 − 1 = 10 → DV 1
    expect(buildBarcode({ bankCode: '341', amountCents: 123_456, dueDate: '2026-05-15', freeField: '1090000000712345678901234' })).toBe(
      '34191144700001234561090000000712345678901234',
    );
    // sum mod 11 = 0 → 11 → DV 1
    expect(buildBarcode({ bankCode: '237', amountCents: 5000, dueDate: '2026-01-10', freeField: '0000000000000000000000008' })).toBe(
      '23791132200000050000000000000000000000000008',
    );
  });

  it('places bank, currency, factor, amount and free field at their FEBRABAN positions', () => {
    const barcode = buildBarcode({ bankCode: '104', amountCents: 987_654_321, dueDate: '2030-07-01', freeField: '9876543210987654321098765' });
    expect(barcode).toHaveLength(44);
    expect(barcode.slice(0, 3)).toBe('104');
    expect(barcode[3]).toBe('9');
    expect(Number(barcode[4])).toBe(expectedGeneralDv(barcode));
    expect(barcode.slice(5, 9)).toBe(String(dueDateFactor('2030-07-01')));
    expect(barcode.slice(9, 19)).toBe('0987654321');
    expect(barcode.slice(19)).toBe('9876543210987654321098765');
    expect(identificarValor(barcode, 'CODIGO_DE_BARRAS')).toBe(9_876_543.21);
    expect(identificarDataComNovoFator2025(barcode, 'CODIGO_DE_BARRAS').toISOString().slice(0, 10)).toBe('2030-07-01');
  });

  it('holds the largest amount in the 10-digit field', () => {
    const barcode = buildBarcode({ bankCode: '033', amountCents: MAX_BOLETO_CENTS, dueDate: '2026-01-01', freeField: '1'.repeat(25) });
    expect(barcode.slice(9, 19)).toBe('9999999999');
    expect(boletoBancarioCodigoBarras(barcode)).toBe(true);
  });

  it.each([
    ['a non-digit bank code', { bankCode: '0a1' }],
    ['a 2-digit bank code', { bankCode: '01' }],
    ['a 4-digit bank code', { bankCode: '0001' }],
    ['a zero amount', { amountCents: 0 }],
    ['a negative amount', { amountCents: -100 }],
    ['a fractional amount', { amountCents: 10.5 }],
    ['NaN', { amountCents: Number.NaN }],
    ['an amount over the field', { amountCents: MAX_BOLETO_CENTS + 1 }],
    ['a 24-digit free field', { freeField: '1'.repeat(24) }],
    ['a 26-digit free field', { freeField: '1'.repeat(26) }],
    ['a free field with a letter', { freeField: `${'1'.repeat(24)}x` }],
    ['a due date before the cycle', { dueDate: '2025-02-21' }],
    ['a malformed due date', { dueDate: '2025-02-31' }],
  ])('throws for %s', (_name, override) => {
    const input = { bankCode: '001', amountCents: 100, dueDate: '2026-01-01', freeField: '0'.repeat(25), ...override };
    expect(() => buildBarcode(input)).toThrow();
  });
});

describe('digitableLine and formatDigitableLine', () => {
  it('matches the published examples of the npm validators', () => {
    // @mrmgomes/boleto-utils README, example 2
    expect(digitableLine('34196790600001000002220000005566385101214000')).toBe('34192220090000556638551012140003679060000100000');
    // boleto-brasileiro-validator README
    const line = '23793381286000782713695000063305975520000370000';
    expect(formatDigitableLine(digitableLine(barcodeFromDigitable(line)))).toBe('23793.38128 60007.827136 95000.063305 9 75520000370000');
  });

  it('builds hand-computed lines', () => {
    expect(digitableLine('00199100000000100000000001234567890123456789')).toBe('00190000090123456789701234567897910000000010000');
    expect(digitableLine('34191144700001234561090000000712345678901234')).toBe('34191090080000071234956789012343114470000123456');
  });

  it('formats the 5 fields', () => {
    expect(formatDigitableLine('00190000090123456789701234567897910000000010000')).toBe('00190.00009 01234.567897 01234.567897 9 10000000010000');
  });

  it('rejects barcodes with a wrong length, currency or check digit, and lines with a wrong length', () => {
    const barcode = '00199100000000100000000001234567890123456789';
    expect(() => digitableLine(barcode.slice(1))).toThrow();
    expect(() => digitableLine(`${barcode.slice(0, 4)}8${barcode.slice(5)}`)).toThrow();
    expect(() => digitableLine(`${barcode.slice(0, 3)}8${barcode.slice(4)}`)).toThrow();
    expect(() => digitableLine(`${barcode.slice(0, 43)}x`)).toThrow();
    expect(() => formatDigitableLine('1'.repeat(46))).toThrow();
    expect(() => formatDigitableLine(`${'1'.repeat(46)}a`)).toThrow();
  });
});

describe('barcodeFromDigitable', () => {
  it('inverts digitableLine, with or without formatting', () => {
    expect(barcodeFromDigitable('34191090080000071234956789012343114470000123456')).toBe('34191144700001234561090000000712345678901234');
    expect(barcodeFromDigitable('00190.00009 01234.567897 01234.567897 9 10000000010000')).toBe('00199100000000100000000001234567890123456789');
  });

  it('throws when a field check digit or the general check digit is wrong', () => {
    const line = '00190000090123456789701234567897910000000010000';
    const flip = (i: number): string => line.slice(0, i) + String((Number(line[i]) + 1) % 10) + line.slice(i + 1);
    expect(() => barcodeFromDigitable(flip(9))).toThrow(); // field 1 DV
    expect(() => barcodeFromDigitable(flip(20))).toThrow(); // field 2 DV
    expect(() => barcodeFromDigitable(flip(31))).toThrow(); // field 3 DV
    expect(() => barcodeFromDigitable(flip(32))).toThrow(); // general DV
    expect(() => barcodeFromDigitable(flip(40))).toThrow(); // amount changed under the general DV
    expect(() => barcodeFromDigitable(line.slice(1))).toThrow();
  });
});

describe('npm validators', () => {
  it('@mrmgomes/boleto-utils rejects a correct barcode whose check digit is 1 by the 10/11 rule (it uses the collection-boleto rule)', () => {
    // Documented so the property below is understood: for bank boletos FEBRABAN maps 0, 10 and 11 to 1;
    // boleto-utils maps remainders 0 and 1 to 0. boleto-brasileiro-validator implements the bank rule.
    const barcode = '34191144700001234561090000000712345678901234';
    expect(mod11Sum(barcode.slice(0, 4) + barcode.slice(5)) % 11).toBe(1);
    expect(boletoBancarioCodigoBarras(barcode)).toBe(true);
    expect(validarBoleto(barcode).sucesso).toBe(false);
    expect(validarBoleto(digitableLine(barcode)).sucesso).toBe(true);
  });
});

describe('properties', () => {
  const digits = (length: number): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
  const inputs = fc.record({
    // boleto-utils reads a leading 8 as a collection (arrecadação) boleto, so bank codes here avoid it
    bankCode: fc.tuple(fc.constantFrom(...'012345679'), digits(2)).map(([first, rest]) => first + rest),
    amountCents: fc.oneof(fc.integer({ min: 1, max: MAX_BOLETO_CENTS }), fc.constantFrom(1, 99, 100, MAX_BOLETO_CENTS)),
    days: fc.integer({ min: 0, max: 8999 }),
    freeField: digits(25),
  });

  it('barcodes and lines are valid, carry the inputs and round-trip', () => {
    fc.assert(
      fc.property(inputs, ({ bankCode, amountCents, days, freeField }) => {
        const dueDate = plusDays(days);
        const barcode = buildBarcode({ bankCode, amountCents, dueDate, freeField });
        expect(barcode).toMatch(/^\d{44}$/);
        expect(Number(barcode[4])).toBe(expectedGeneralDv(barcode));
        expect(barcode.slice(9, 19)).toBe(String(amountCents).padStart(10, '0'));
        expect(Number(barcode.slice(5, 9))).toBe(1000 + days);
        expect(boletoBancarioCodigoBarras(barcode)).toBe(true);

        const line = digitableLine(barcode);
        expect(line).toMatch(/^\d{47}$/);
        expect(Number(line[9])).toBe(expectedMod10(line.slice(0, 9)));
        expect(Number(line[20])).toBe(expectedMod10(line.slice(10, 20)));
        expect(Number(line[31])).toBe(expectedMod10(line.slice(21, 31)));
        expect(boletoBancarioLinhaDigitavel(line, true)).toBe(true);
        expect(boletoBancarioLinhaDigitavel(formatDigitableLine(line), true)).toBe(true);
        expect(codBarras2LinhaDigitavel(barcode, false)).toBe(line);
        expect(linhaDigitavel2CodBarras(line)).toBe(barcode);
        expect(barcodeFromDigitable(line)).toBe(barcode);
        expect(barcodeFromDigitable(formatDigitableLine(line))).toBe(barcode);

        const fromLine = validarBoleto(line);
        expect(fromLine.sucesso).toBe(true);
        expect(fromLine.codigoBarras).toBe(barcode);
        // boleto-utils misreads amounts whose 10-digit field starts "d0" with d ≠ 0 (its leading-zero strip drops the d)
        if (amountCents < 1_000_000_000) expect(Math.round(fromLine.valor * 100)).toBe(amountCents);
        expect(identificarDataComNovoFator2025(line, 'LINHA_DIGITAVEL').toISOString().slice(0, 10)).toBe(dueDate);
        // boleto-utils agrees on the barcode's check digit except where its rule differs (see above)
        const remainder = mod11Sum(barcode.slice(0, 4) + barcode.slice(5)) % 11;
        expect(validarBoleto(barcode).sucesso).toBe(remainder > 1);
      }),
      { numRuns: 500 },
    );
  });

  it('digitableLine accepts a barcode with one digit changed only when the independent check still holds', () => {
    fc.assert(
      fc.property(inputs, fc.integer({ min: 0, max: 43 }), fc.integer({ min: 1, max: 9 }), ({ bankCode, amountCents, days, freeField }, position, delta) => {
        const barcode = buildBarcode({ bankCode, amountCents, dueDate: plusDays(days), freeField });
        const changed = barcode.slice(0, position) + String((Number(barcode[position]) + delta) % 10) + barcode.slice(position + 1);
        // a substitution always changes the remainder mod 11, but remainders 0 and 1 share the check digit 1
        const stillValid = changed[3] === '9' && expectedGeneralDv(changed) === Number(changed[4]);
        if (position === 4) expect(stillValid).toBe(false);
        expect(boletoBancarioCodigoBarras(changed)).toBe(expectedGeneralDv(changed) === Number(changed[4]));
        if (stillValid) expect(barcodeFromDigitable(digitableLine(changed))).toBe(changed);
        else expect(() => digitableLine(changed)).toThrow();
      }),
      { numRuns: 500 },
    );
  });
});

describe('lastEncodableDueDate and dueDateOfFactor: the due dates a barcode can carry', () => {
  it.each([
    ['2025-02-22', '2049-10-13'],
    ['2026-07-01', '2049-10-13'],
    ['2049-10-13', '2049-10-13'],
    ['2049-10-14', plusDays(17_999)], // the next cycle began: its own factor 9999
    ['2024-12-31', '2049-10-13'], // before the cycle began (never in production): the first cycle
  ])('issued on %s → at most %s', (today, last) => {
    expect(lastEncodableDueDate(today)).toBe(last);
  });

  it('the last encodable day carries factor 9999 and reads back as itself, independently decoded; the next day wraps to a past date', () => {
    const last = lastEncodableDueDate('2026-01-15');
    const barcode = buildBarcode({ bankCode: '341', amountCents: 1000, dueDate: last, freeField: '1'.repeat(25) });
    expect(barcode.slice(5, 9)).toBe('9999');
    expect(dueDateOfFactor(9999, '2026-01-15')).toBe(last);
    expect(identificarDataComNovoFator2025(barcode, 'CODIGO_DE_BARRAS').toISOString().slice(0, 10)).toBe(last);
    const next = plusDays(9000);
    const wrapped = buildBarcode({ bankCode: '341', amountCents: 1000, dueDate: next, freeField: '1'.repeat(25) });
    expect(dueDateOfFactor(Number(wrapped.slice(5, 9)), '2026-01-15')).toBe('2025-02-22');
    expect(next > last).toBe(true);
  });

  it('every date of the current cycle round-trips through its factor', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8999 }), fc.integer({ min: 0, max: 8999 }), (issuedDays, dueDays) => {
        const today = plusDays(issuedDays);
        const due = plusDays(dueDays);
        expect(due <= lastEncodableDueDate(today)).toBe(true);
        expect(dueDateOfFactor(dueDateFactor(due), today)).toBe(due);
      }),
    );
  });

  it.each([999, 10_000, 1000.5, Number.NaN])('dueDateOfFactor refuses the factor %d', (factor) => {
    expect(() => dueDateOfFactor(factor, '2026-01-15')).toThrow();
  });
});

import fc from 'fast-check';
import { createDynamicPix, hasError, isDynamicPix, parsePix } from 'pix-utils';
import { describe, expect, it } from 'vitest';
import { buildDynamicBrCode, crc16ccitt } from '../../../shared/domain/pix-brcode';

const location = 'pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25';

/** Minimal independent EMV TLV reader: [id, value] pairs in order. */
function tlv(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let i = 0;
  while (i < text.length) {
    const id = text.slice(i, i + 2);
    const length = Number(text.slice(i + 2, i + 4));
    if (!/^\d{2}$/.test(text.slice(i + 2, i + 4)) || i + 4 + length > text.length) throw new Error(`bad TLV at ${i}`);
    out.push([id, text.slice(i + 4, i + 4 + length)]);
    i += 4 + length;
  }
  return out;
}

/** Parses with pix-utils and returns the dynamic Pix, failing the test otherwise. */
function parseDynamic(code: string): { url: string; merchantName: string; merchantCity: string } {
  const parsed = parsePix(code);
  if (hasError(parsed) || !isDynamicPix(parsed)) throw new Error(`pix-utils did not read a dynamic Pix: ${JSON.stringify(parsed)}`);
  return parsed;
}

describe('crc16ccitt', () => {
  it.each([
    ['123456789', '29B1'], // the CRC-16/CCITT-FALSE check value
    ['', 'FFFF'], // the initial value, untouched
    ['A', 'B915'],
  ])('%j → %s', (text, crc) => {
    expect(crc16ccitt(text)).toBe(crc);
  });

  it('matches the CRC of the BR Code example in the pix-utils README', () => {
    const example = '00020126540014br.gov.bcb.pix2532https://pix.thalesogliari.com.br5204000053039865802BR5914Thales Ogliari6009SAO PAULO62070503***63043FD3';
    expect(crc16ccitt(example.slice(0, -4))).toBe('3FD3');
  });
});

describe('buildDynamicBrCode', () => {
  it('is a valid dynamic Pix for pix-utils with the same URL, merchant name and city', () => {
    const code = buildDynamicBrCode({ location, merchantName: 'Loja Exemplo', merchantCity: 'Sao Paulo' });
    const pix = parseDynamic(code);
    expect(pix.url).toBe(location);
    expect(pix.merchantName).toBe('Loja Exemplo');
    expect(pix.merchantCity).toBe('Sao Paulo');
  });

  it('has exactly the fields of a single-use dynamic charge, in order, and no amount', () => {
    const code = buildDynamicBrCode({ location, merchantName: 'Loja Exemplo', merchantCity: 'Sao Paulo' });
    const fields = tlv(code);
    expect(fields.map(([id]) => id)).toEqual(['00', '01', '26', '52', '53', '58', '59', '60', '62', '63']);
    const byId = Object.fromEntries(fields);
    expect(byId['00']).toBe('01');
    expect(byId['01']).toBe('12');
    expect(tlv(byId['26'] ?? '')).toEqual([
      ['00', 'br.gov.bcb.pix'],
      ['25', location],
    ]);
    expect(byId['52']).toBe('0000');
    expect(byId['53']).toBe('986');
    expect(byId['58']).toBe('BR');
    expect(tlv(byId['62'] ?? '')).toEqual([['05', '***']]);
    expect(byId['54']).toBeUndefined();
    expect(code.slice(-8, -4)).toBe('6304');
    expect(byId['63']).toMatch(/^[0-9A-F]{4}$/);
    expect(byId['63']).toBe(crc16ccitt(code.slice(0, -4)));
  });

  it('equals the BR Code pix-utils creates for the same single-use charge (upper-case ASCII names)', () => {
    const input = { location, merchantName: 'FULANO DE TAL', merchantCity: 'BRASILIA' };
    const theirs = createDynamicPix({ url: input.location, merchantName: input.merchantName, merchantCity: input.merchantCity, oneTime: true });
    if (hasError(theirs)) throw new Error('pix-utils failed');
    expect(buildDynamicBrCode(input)).toBe(theirs.toBRCode());
  });

  it('strips diacritics and truncates the name to 25 and the city to 15 characters', () => {
    const code = buildDynamicBrCode({ location, merchantName: 'Açaí & Pão de Queijo do Zé Ltda', merchantCity: 'São José dos Campos' });
    const pix = parseDynamic(code);
    expect(pix.merchantName).toBe('Acai & Pao de Queijo do Z');
    expect(pix.merchantCity).toBe('Sao Jose dos Ca');
  });

  it('accepts a 77-character location and rejects longer ones, empty ones, schemes and spaces', () => {
    const long = `pix.example.com/qr/v2/${'a'.repeat(55)}`;
    expect(long).toHaveLength(77);
    expect(parseDynamic(buildDynamicBrCode({ location: long, merchantName: 'A', merchantCity: 'B' })).url).toBe(long);
    expect(() => buildDynamicBrCode({ location: `${long}a`, merchantName: 'A', merchantCity: 'B' })).toThrow();
    expect(() => buildDynamicBrCode({ location: '', merchantName: 'A', merchantCity: 'B' })).toThrow();
    expect(() => buildDynamicBrCode({ location: `https://${location}`, merchantName: 'A', merchantCity: 'B' })).toThrow();
    expect(() => buildDynamicBrCode({ location: 'pix.example.com/a b', merchantName: 'A', merchantCity: 'B' })).toThrow();
  });

  it('rejects names or cities with nothing printable', () => {
    expect(() => buildDynamicBrCode({ location, merchantName: '   ', merchantCity: 'B' })).toThrow();
    expect(() => buildDynamicBrCode({ location, merchantName: 'A', merchantCity: '東京' })).toThrow();
  });

  it('property: names and cities with Portuguese accents give a valid dynamic Pix whose name and city pix-utils normalizes the same way', () => {
    const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZáàâãéêíóôõúüçÁÀÂÃÉÊÍÓÔÕÚÜÇ');
    const word = fc.string({ unit: letter, minLength: 1, maxLength: 8 });
    const phrase = (maxLength: number): fc.Arbitrary<string> =>
      fc
        .array(word, { minLength: 1, maxLength: 5 })
        .map((words) => words.join(' ').slice(0, maxLength).trim())
        .filter((text) => text.length > 0);
    fc.assert(
      fc.property(phrase(25), phrase(15), (merchantName, merchantCity) => {
        const code = buildDynamicBrCode({ location, merchantName, merchantCity });
        expect(code).toMatch(/^[\x20-\x7e]+$/);
        const ours = parseDynamic(code);
        expect(ours.url).toBe(location);
        // pix-utils upper-cases after stripping the marks; compare case-insensitively
        const theirs = createDynamicPix({ url: location, merchantName, merchantCity, oneTime: true });
        if (hasError(theirs)) throw new Error('pix-utils failed');
        const theirsParsed = parseDynamic(theirs.toBRCode());
        expect(ours.merchantName.toUpperCase()).toBe(theirsParsed.merchantName.trimEnd());
        expect(ours.merchantCity.toUpperCase()).toBe(theirsParsed.merchantCity.trimEnd());
      }),
      { numRuns: 300 },
    );
  });
});

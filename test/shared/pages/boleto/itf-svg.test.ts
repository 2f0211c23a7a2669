import { toSVG } from 'bwip-js/node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { itfElements, itfSvg } from '../../../../shared/pages/boleto/itf-svg';

/** The drawing of an SVG: its viewBox and, per stroke width, the stroke paths. */
function geometry(svg: string): string {
  const viewBox = /viewBox="([^"]+)"/.exec(svg)?.[1] ?? '';
  const paths = [...svg.matchAll(/stroke-width="([\d.]+)" d="([^"]+)"/g)].map((m) => `${m[1]}:${m[2]}`).sort();
  return [viewBox, ...paths].join('|');
}

describe('Interleaved 2 of 5 as SVG (the boleto barcode)', () => {
  it('draws exactly what bwip-js (a reference implementation) draws, for any even run of digits', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...'0123456789'), { minLength: 1, maxLength: 30 }).map((d) => d.join('') + d.join('')),
        (digits) => {
          const reference = toSVG({ bcid: 'interleaved2of5', text: digits, height: 18, includetext: false });
          expect(geometry(itfSvg(digits))).toBe(geometry(reference));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("spends FEBRABAN's 44 digits in 810 units: start, 22 pairs, stop; narrow 2, wide 6", () => {
    const elements = itfElements('34191144700001234561090000000712345678901234');
    expect(elements.slice(0, 4)).toBe('NNNN');
    expect(elements.slice(-3)).toBe('WNN');
    expect(elements).toHaveLength(4 + 22 * 10 + 3);
    expect(itfSvg('34191144700001234561090000000712345678901234')).toContain('viewBox="0 0 810 103"');
  });

  it('refuses an odd number of digits or anything but digits', () => {
    for (const bad of ['', '1', '123', '12a4', ' 12']) expect(() => itfSvg(bad), bad).toThrow(/even number of digits/);
  });
});

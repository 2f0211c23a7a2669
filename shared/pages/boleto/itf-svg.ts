/**
 * Interleaved 2 of 5 (ITF), the symbology of the boleto barcode (FEBRABAN: 44 digits, narrow to wide
 * 1:3), drawn as an inline SVG: pure, a few dozen lines, where a general barcode library added 900 KB
 * to the boleto page's function.
 *
 * Each digit is five elements, two of them wide; a pair of digits interleaves the first's five bars
 * with the second's five spaces. The symbol opens with narrow bar, space, bar, space and closes with
 * wide bar, narrow space, narrow bar.
 */
const DIGIT_PATTERNS = ['NNWWN', 'WNNNW', 'NWNNW', 'WWNNN', 'NNWNW', 'WNWNN', 'NWWNN', 'NNNWW', 'WNNWN', 'NWNWN'] as const;
const START = 'NNNN';
const STOP = 'WNN';

/** Module widths in SVG units: narrow 2, wide 6 (the 1:3 ratio FEBRABAN asks for). */
const WIDTH = { N: 2, W: 6 } as const;
/** Bar height in SVG units; the page's CSS scales the drawing to 103 mm wide, bars about 13 mm tall. */
const HEIGHT = 103;

/** The widths (N or W) of the symbol's elements, alternating bar and space, first a bar. */
export function itfElements(digits: string): string {
  if (!/^(?:\d\d)+$/.test(digits)) throw new Error('Interleaved 2 of 5 encodes a non-empty, even number of digits');
  let elements = START;
  for (let i = 0; i < digits.length; i += 2) {
    const bars = DIGIT_PATTERNS[Number(digits[i])] ?? '';
    const spaces = DIGIT_PATTERNS[Number(digits[i + 1])] ?? '';
    for (let j = 0; j < 5; j += 1) elements += `${bars[j] ?? ''}${spaces[j] ?? ''}`;
  }
  return elements + STOP;
}

/** The barcode of `digits` as an SVG of vertical strokes, one path per bar width. */
export function itfSvg(digits: string): string {
  const strokes: Record<'N' | 'W', string[]> = { N: [], W: [] };
  let x = 0;
  [...itfElements(digits)].forEach((kind, index) => {
    const width = WIDTH[kind as 'N' | 'W'];
    if (index % 2 === 0) strokes[kind as 'N' | 'W'].push(`M${x + width / 2} ${HEIGHT}L${x + width / 2} 0`);
    x += width;
  });
  const paths = (['N', 'W'] as const)
    .filter((kind) => strokes[kind].length > 0)
    .map((kind) => `<path stroke="#000000" stroke-width="${WIDTH[kind]}" d="${strokes[kind].join('')}" />`);
  return `<svg viewBox="0 0 ${x} ${HEIGHT}" xmlns="http://www.w3.org/2000/svg">\n${paths.join('\n')}\n</svg>\n`;
}

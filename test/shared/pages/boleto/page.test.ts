import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBarcode, digitableLine } from '../../../../shared/domain/boleto-barcode';
import { type BoletoPage, renderBoletoHtml } from '../../../../shared/pages/boleto/page';

/** Interleaved 2 of 5 digit patterns (N narrow, W wide), from the ITF symbology definition. */
const I2OF5: Record<string, string> = {
  NNWWN: '0',
  WNNNW: '1',
  NWNNW: '2',
  WWNNN: '3',
  NNWNW: '4',
  WNWNN: '5',
  NWWNN: '6',
  NNNWW: '7',
  WNNWN: '8',
  NWNWN: '9',
};

type Bar = { left: number; right: number };

/** The bars of the first inline <svg> of `html`: bwip-js draws each bar as a vertical stroke "Mx y1Lx y2" of width stroke-width. */
function svgBars(html: string): Bar[] {
  const svg = /<svg[\s\S]*?<\/svg>/.exec(html)?.[0];
  if (!svg) throw new Error('no <svg> element');
  const bars: Bar[] = [];
  for (const path of svg.matchAll(/<path\b[^>]*>/g)) {
    const tag = path[0];
    const width = Number(/stroke-width="([\d.]+)"/.exec(tag)?.[1]);
    const d = /\sd="([^"]+)"/.exec(tag)?.[1] ?? '';
    for (const segment of d.matchAll(/M([\d.]+) ([\d.]+)L([\d.]+) ([\d.]+)/g)) {
      const [x1, x2] = [Number(segment[1]), Number(segment[3])];
      if (x1 !== x2) throw new Error('not a vertical bar');
      bars.push({ left: x1 - width / 2, right: x1 + width / 2 });
    }
  }
  return bars.sort((a, b) => a.left - b.left);
}

/** Decodes Interleaved 2 of 5 from bar geometry: start NNNN (bar, space, bar, space), digit pairs, stop WNN. */
function decodeI2of5(bars: Bar[]): string {
  const elements: number[] = []; // alternating bar, space, bar, … widths
  bars.forEach((bar, i) => {
    if (i > 0) elements.push(bar.left - (bars[i - 1]?.right ?? 0));
    elements.push(bar.right - bar.left);
  });
  const narrow = Math.min(...elements);
  const kinds = elements.map((width) => {
    if (Math.abs(width - narrow) < 0.01) return 'N';
    if (width >= 2 * narrow && width <= 3.5 * narrow) return 'W';
    throw new Error(`width ${width} is neither narrow nor wide`);
  });
  const start = kinds.slice(0, 4).join('');
  const stop = kinds.slice(-3).join('');
  if (start !== 'NNNN') throw new Error(`bad start ${start}`);
  if (stop !== 'WNN') throw new Error(`bad stop ${stop}`);
  const data = kinds.slice(4, -3);
  if (data.length % 10 !== 0) throw new Error('data is not whole digit pairs');
  let digits = '';
  for (let i = 0; i < data.length; i += 10) {
    const pair = data.slice(i, i + 10);
    const barsPattern = pair.filter((_, j) => j % 2 === 0).join('');
    const spacesPattern = pair.filter((_, j) => j % 2 === 1).join('');
    const first = I2OF5[barsPattern];
    const second = I2OF5[spacesPattern];
    if (first === undefined || second === undefined) throw new Error(`bad pattern ${barsPattern}/${spacesPattern}`);
    digits += first + second;
  }
  return digits;
}

const barcode = buildBarcode({ bankCode: '341', amountCents: 123_456, dueDate: '2026-05-15', freeField: '1090000000712345678901234' });
const base: BoletoPage = {
  reference: 'INV-2026-0042',
  merchantName: 'Padaria São João Ltda',
  payerName: 'Maria da Conceição',
  payerDocument: '***.456.789-**',
  amount: '1234.56',
  dueDate: '2026-05-15',
  digitableLine: digitableLine(barcode),
  barcode,
  instructions: 'Não receber após o vencimento.',
};

describe('renderBoletoHtml', () => {
  it('is a complete pt-BR HTML5 document with print CSS', () => {
    const html = renderBoletoHtml(base);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('@media print');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('shows merchant, payer, BRL amount, DD/MM/YYYY date, formatted line, reference and instructions', () => {
    const html = renderBoletoHtml(base);
    expect(html).toContain('Padaria São João Ltda');
    expect(html).toContain('Maria da Conceição');
    expect(html).toContain('***.456.789-**');
    expect(html).toContain('R$ 1.234,56');
    expect(html).toContain('15/05/2026');
    expect(html).toContain('34191.09008 00000.712349 56789.012343 1 14470000123456');
    expect(html).toContain('INV-2026-0042');
    expect(html).toContain('Não receber após o vencimento.');
    expect(html).toContain('Beneficiário');
    expect(html).toContain('Pagador');
  });

  it.each([
    ['0.01', 'R$ 0,01'],
    ['5', 'R$ 5,00'],
    ['999.9', 'R$ 999,90'],
    ['1000.00', 'R$ 1.000,00'],
    ['1234567.89', 'R$ 1.234.567,89'],
    ['99999999.99', 'R$ 99.999.999,99'],
  ])('formats the amount %s as %s', (amount, brl) => {
    expect(renderBoletoHtml({ ...base, amount })).toContain(brl);
  });

  it('escapes every interpolated text', () => {
    const html = renderBoletoHtml({
      ...base,
      payerName: '<script>alert(1)</script>',
      merchantName: 'A & B "quoted" \'single\'',
      reference: '</title><img src=x onerror=alert(2)>',
      instructions: '<b>bold</b>',
      payerDocument: '<i>doc</i>',
    });
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('A &amp; B &quot;quoted&quot; &#39;single&#39;');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;/title&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(html).not.toContain('<b>bold');
    expect(html).not.toContain('<i>doc');
  });

  it('omits absent instructions and payer document', () => {
    const html = renderBoletoHtml({ ...base, instructions: undefined, payerDocument: undefined });
    expect(html).not.toContain('Instruções');
    expect(html).not.toContain('***.456.789-**');
  });

  it('draws the 44 digits as an Interleaved 2 of 5 SVG that decodes back to the barcode', () => {
    const html = renderBoletoHtml(base);
    expect(html).toMatch(/<svg[^>]*viewBox=/);
    expect(decodeI2of5(svgBars(html))).toBe(barcode);
  });

  it('decodes back for random boletos', () => {
    const digits = (length: number): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
    fc.assert(
      fc.property(digits(3), fc.integer({ min: 1, max: 9_999_999_999 }), digits(25), (bankCode, amountCents, freeField) => {
        const code = buildBarcode({ bankCode, amountCents, dueDate: '2027-03-10', freeField });
        const html = renderBoletoHtml({ ...base, barcode: code, digitableLine: digitableLine(code) });
        expect(decodeI2of5(svgBars(html))).toBe(code);
      }),
      { numRuns: 30 },
    );
  });

  it('throws when the barcode is not the digitable line’s, or on a malformed amount or date', () => {
    const other = buildBarcode({ bankCode: '001', amountCents: 100, dueDate: '2026-01-01', freeField: '0'.repeat(25) });
    expect(() => renderBoletoHtml({ ...base, barcode: other })).toThrow();
    expect(() => renderBoletoHtml({ ...base, amount: '12,34' })).toThrow();
    expect(() => renderBoletoHtml({ ...base, amount: '-1.00' })).toThrow();
    expect(() => renderBoletoHtml({ ...base, dueDate: '15/05/2026' })).toThrow();
  });

  describe('a BolePix (issue 28): both rails on the page', () => {
    const pix = { copy: '00020101021226<script>5204000053039865802BR6304ABCD', qrDataUri: 'data:image/png;base64,iVBORw0KGgo=' };

    it('shows the Pix half beside the boleto: the QR code with an alt text and the copy-and-paste code, escaped', () => {
      const html = renderBoletoHtml({ ...base, pix });
      expect(html).toContain('<h1>Boleto bancário com Pix</h1>');
      expect(html).toContain(`<img src="${pix.qrDataUri}" alt="QR code Pix deste boleto">`);
      expect(html).toContain('<p class="copy">00020101021226&lt;script&gt;5204000053039865802BR6304ABCD</p>');
      expect(html).not.toContain('<script>');
      // The barcode stays: the payer chooses the rail.
      expect(html).toMatch(/<div class="barcode"[^>]*><svg/);
    });

    it('states the late-payment rules both rails follow, and the last day payment is accepted', () => {
      const html = renderBoletoHtml({ ...base, pix, late: { fine: '2.00', interest: '1.00', lastDay: '2027-04-09' } });
      expect(html).toContain('Após o vencimento: multa de 2,00% e juros de 1,00% ao mês (pro rata por dia corrido). Não receber após 09/04/2027.');
    });

    it('a boleto that can no longer be paid shows its notice; a plain boleto has no Pix section', () => {
      const html = renderBoletoHtml({ ...base, notice: 'Este boleto já foi pago. Não pague novamente.' });
      expect(html).toContain('<p class="notice" role="status">Este boleto já foi pago. Não pague novamente.</p>');
      expect(html).not.toContain('class="pix"');
      expect(renderBoletoHtml(base)).not.toMatch(/class="(pix|notice)"/);
    });
  });
});

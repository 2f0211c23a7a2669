import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkoutSecurityHeaders, cspHash, escapeHtml, formatBrl } from '../../../../shared/pages/kit/html';

/** A reference independent of formatBrl: Intl's pt-BR currency format of the exact decimal text. */
function intlBrl(cents: bigint): string {
  const negative = cents < 0n;
  const magnitude = negative ? -cents : cents;
  const decimal = `${negative ? '-' : ''}${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, '0')}`;
  const format = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format as (value: string) => string;
  return format(decimal).replace(/\u00a0/g, ' ');
}

describe('escapeHtml', () => {
  it('escapes each of & < > " \' and `', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\`</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;');
    expect(escapeHtml('Café São Paulo')).toBe('Café São Paulo');
  });

  it('never leaves a raw < > " \' or ` in its output', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (input) => {
        expect(escapeHtml(input)).not.toMatch(/[<>"'`]/);
      }),
    );
  });

  it('leaves no & that does not start one of its own references, and decodes back to the input', () => {
    const decode = (html: string) =>
      html.replace(/&(amp|lt|gt|quot|#39|#96);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#96': '`' })[name] ?? '');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (input) => {
        const output = escapeHtml(input);
        expect(output).not.toMatch(/&(?!(amp|lt|gt|quot|#39|#96);)/);
        expect(decode(output)).toBe(input);
      }),
    );
  });
});

describe('formatBrl', () => {
  it.each([
    [0n, 'R$ 0,00'],
    [1n, 'R$ 0,01'],
    [99n, 'R$ 0,99'],
    [100n, 'R$ 1,00'],
    [123_456n, 'R$ 1.234,56'],
    [100_000_000n, 'R$ 1.000.000,00'],
    [9_999_999_999n, 'R$ 99.999.999,99'],
    [-150n, '-R$ 1,50'],
    [12_345_678_901_234_567_890n, 'R$ 123.456.789.012.345.678,90'],
  ])('formats %s cents as %j', (cents, text) => {
    expect(formatBrl(cents)).toBe(text);
  });

  it('takes safe integer numbers and refuses fractions of a cent', () => {
    expect(formatBrl(123_456)).toBe('R$ 1.234,56');
    expect(() => formatBrl(1.5)).toThrow();
    expect(() => formatBrl(2 ** 53)).toThrow();
  });

  it("matches Intl's pt-BR format for random bigints", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (cents) => {
        expect(formatBrl(cents)).toBe(intlBrl(cents));
      }),
    );
  });
});

describe('checkoutSecurityHeaders', () => {
  const script = cspHash('document.title = "x";');

  it('gives a strict CSP with only the given script hashes, and the other headers', () => {
    const headers = checkoutSecurityHeaders([script]);
    expect(headers).toEqual({
      'Content-Security-Policy': `default-src 'none'; script-src ${script}; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    const policy = headers['Content-Security-Policy'] ?? '';
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|\*|https:|http:/);
  });

  it("allows no script at all when given no hash, style hashes when given, and the callback's origin as a form target", () => {
    const style = cspHash('body{margin:0}');
    const policy = checkoutSecurityHeaders([], { styleHashes: [style], formActionOrigins: ['https://shop.example'] })['Content-Security-Policy'];
    expect(policy).toContain("script-src 'none';");
    expect(policy).toContain(`style-src ${style};`);
    expect(policy).toContain("form-action 'self' https://shop.example;");
  });

  it('refuses anything that is not a sha256 hash source or an origin (no way to smuggle a directive)', () => {
    expect(() => checkoutSecurityHeaders(["'unsafe-inline'"])).toThrow();
    expect(() => checkoutSecurityHeaders([`${script}; script-src *`])).toThrow();
    expect(() => checkoutSecurityHeaders([script], { styleHashes: ['*'] })).toThrow();
    expect(() => checkoutSecurityHeaders([script], { formActionOrigins: ['https://shop.example/path'] })).toThrow();
    expect(() => checkoutSecurityHeaders([script], { formActionOrigins: ['javascript:alert(1)'] })).toThrow();
  });

  it('hashes like the CSP spec: base64 SHA-256 of the exact text', () => {
    expect(cspHash('')).toBe("'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
  });
});

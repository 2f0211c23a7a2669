import { checkoutSecurityHeaders, cspHash } from '../checkout/render';
import { parseAmountToCents } from '../domain/money';
import { barcodeFromDigitable, formatDigitableLine } from './barcode';
import { itfSvg } from './itf-svg';

/** What the printable boleto page shows. Every text is escaped when rendered. */
export type BoletoPage = {
  reference: string;
  merchantName: string;
  payerName: string;
  /** Already masked by the caller. */
  payerDocument?: string;
  /** Decimal amount, e.g. "123.45". */
  amount: string;
  /** 'YYYY-MM-DD'. */
  dueDate: string;
  /** 47 digits. */
  digitableLine: string;
  /** 44 digits; must be the barcode of `digitableLine`. */
  barcode: string;
  instructions?: string;
};

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** "1234.5" → "R$ 1.234,50" (integer arithmetic on cents, no floats). */
function formatBrl(amount: string): string {
  const cents = parseAmountToCents(amount);
  const reais = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `R$ ${reais},${String(cents % 100).padStart(2, '0')}`;
}

/** 'YYYY-MM-DD' → 'DD/MM/YYYY'. */
function formatDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new Error(`Invalid due date "${date}": use YYYY-MM-DD`);
  return `${match[3]}/${match[2]}/${match[1]}`;
}

/** The Interleaved 2 of 5 barcode of the 44 digits as an inline SVG (bars only, no human-readable text). */
function barcodeSvg(barcode: string): string {
  return itfSvg(barcode);
}

const STYLE = `
  @page { size: A4; margin: 12mm; }
  * { box-sizing: border-box; }
  body { font-family: Arial, Helvetica, sans-serif; font-size: 12px; color: #000; margin: 0; }
  main { max-width: 190mm; margin: 0 auto; padding: 8mm 0; }
  h1 { font-size: 16px; margin: 0 0 4mm; }
  table { width: 100%; border-collapse: collapse; }
  th, td { border: 1px solid #000; padding: 1.5mm 2mm; text-align: left; vertical-align: top; }
  th { font-size: 9px; font-weight: normal; text-transform: uppercase; width: 35mm; }
  .line { font-family: 'Courier New', monospace; font-size: 15px; font-weight: bold; letter-spacing: 0.5px; margin: 0 0 3mm; }
  .amount { font-weight: bold; }
  .barcode { margin-top: 6mm; }
  .barcode svg { display: block; width: 103mm; height: auto; }
  @media print {
    main { padding: 0; max-width: none; }
    .barcode { break-inside: avoid; page-break-inside: avoid; }
  }
`;

/** A complete printable HTML5 page of a boleto (pt-BR), with the barcode as an inline SVG. */
export function renderBoletoHtml(page: BoletoPage): string {
  if (barcodeFromDigitable(page.digitableLine) !== page.barcode) throw new Error('The barcode does not match the digitable line');
  const rows: Array<[string, string, string?]> = [
    ['Beneficiário', page.merchantName],
    ['Pagador', page.payerDocument === undefined ? page.payerName : `${page.payerName} — ${page.payerDocument}`],
    ['Vencimento', formatDate(page.dueDate)],
    ['Valor do documento', formatBrl(page.amount), 'amount'],
    ['Número do documento', page.reference],
  ];
  if (page.instructions !== undefined && page.instructions !== '') rows.push(['Instruções', page.instructions]);
  const body = rows
    .map(([label, value, cls]) => `<tr><th scope="row">${escapeHtml(label)}</th><td${cls ? ` class="${cls}"` : ''}>${escapeHtml(value)}</td></tr>`)
    .join('\n        ');
  return `<!DOCTYPE html>
<html lang="pt-BR">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Boleto ${escapeHtml(page.reference)}</title>
    <style>${STYLE}</style>
  </head>
  <body>
    <main>
      <h1>Boleto bancário</h1>
      <p class="line">${escapeHtml(formatDigitableLine(page.digitableLine))}</p>
      <table>
        ${body}
      </table>
      <div class="barcode" role="img" aria-label="Código de barras">${barcodeSvg(page.barcode)}</div>
    </main>
  </body>
</html>
`;
}

const STYLE_HASH = cspHash(STYLE);

/**
 * The boleto page's headers, the checkout page's (issue 31): a Content-Security-Policy with no script
 * at all and its one style by hash, no framing (`frame-ancestors 'none'`, `X-Frame-Options: DENY`: the
 * payer's masked document and the amount cannot be shown inside another site), no referrer (the URL
 * is the link's secret), never cached, no sniffing.
 */
export function boletoPageHeaders(): Record<string, string> {
  return checkoutSecurityHeaders([], { styleHashes: [STYLE_HASH] });
}

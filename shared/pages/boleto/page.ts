import { checkoutSecurityHeaders, cspHash } from '../kit/html';
import { parseAmountToCents } from '../../domain/money';
import { barcodeFromDigitable, formatDigitableLine } from '../../domain/boleto-barcode';
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
  /** A BolePix's Pix half, shown while the boleto is payable: its "copia e cola" code and its QR code (a PNG data URI). */
  pix?: { copy: string; qrDataUri: string };
  /** Late-payment rules (both rails alike): percents as "2.00", and the last day payment is accepted ('YYYY-MM-DD'). */
  late?: { fine: string; interest: string; lastDay: string };
  /** Shown above the boleto when it can no longer be paid (paid, canceled, refunded). */
  notice?: string;
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
  .barcode svg { display: block; width: 100%; max-width: 103mm; height: auto; }
  .notice { border: 2px solid #000; padding: 2mm; font-weight: bold; margin: 0 0 4mm; }
  .pix { display: flex; gap: 6mm; align-items: flex-start; margin-top: 6mm; border: 1px solid #000; padding: 3mm; break-inside: avoid; page-break-inside: avoid; }
  .pix h2 { font-size: 13px; margin: 0 0 2mm; }
  .pix img { width: 38mm; height: 38mm; flex: none; }
  .pix .copy { font-family: 'Courier New', monospace; font-size: 10px; word-break: break-all; margin: 0; }
  @media screen { main { padding-left: 4mm; padding-right: 4mm; } }
  @media print {
    main { padding: 0; max-width: none; }
    .barcode { break-inside: avoid; page-break-inside: avoid; }
    .barcode svg { width: 103mm; max-width: none; }
  }
`;

/** "2.00" → "2,00%". */
function formatPercent(percent: string): string {
  return `${percent.replace('.', ',')}%`;
}

/** The late-payment instruction both rails follow, in the words of a bank's boleto. */
function lateInstruction(late: NonNullable<BoletoPage['late']>): string {
  return `Após o vencimento: multa de ${formatPercent(late.fine)} e juros de ${formatPercent(late.interest)} ao mês (pro rata por dia corrido). Não receber após ${formatDate(late.lastDay)}.`;
}

/** The Pix half of a BolePix: its QR code and its copy-and-paste code (the payer chooses the rail). */
function pixSection(pix: NonNullable<BoletoPage['pix']>): string {
  return `<section class="pix" aria-labelledby="pix-title">
        <img src="${escapeHtml(pix.qrDataUri)}" alt="QR code Pix deste boleto">
        <div>
          <h2 id="pix-title">Pague com Pix</h2>
          <p>Leia o QR code no app do seu banco ou use o Pix copia e cola:</p>
          <p class="copy">${escapeHtml(pix.copy)}</p>
        </div>
      </section>`;
}

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
  if (page.late) rows.push(['Juros e multa', lateInstruction(page.late)]);
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
      <h1>${page.pix ? 'Boleto bancário com Pix' : 'Boleto bancário'}</h1>
      ${page.notice ? `<p class="notice" role="status">${escapeHtml(page.notice)}</p>` : ''}
      <p class="line">${escapeHtml(formatDigitableLine(page.digitableLine))}</p>
      <table>
        ${body}
      </table>
      <div class="barcode" role="img" aria-label="Código de barras">${barcodeSvg(page.barcode)}</div>
      ${page.pix ? pixSection(page.pix) : ''}
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

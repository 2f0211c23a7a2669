import { createHash } from 'node:crypto';

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/**
 * Text made inert in HTML element content and in quoted attribute values: & < > " ' and the backtick
 * become character references. Not enough for unquoted attributes, URLs in href/src, or script and
 * style content: the page puts user values only in text and quoted attributes.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (char) => HTML_ESCAPES[char] ?? char);
}

/**
 * Integer cents as Brazilian reais, "R$ 1.234,56" (pt-BR: dot between thousands, comma before the
 * cents, an ordinary space after R$; negative "-R$ 1,00"). Exact for any bigint: no floats.
 */
export function formatBrl(cents: bigint | number): string {
  if (typeof cents === 'number' && !Number.isSafeInteger(cents)) throw new Error('Cents must be a safe integer');
  const value = BigInt(cents);
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const reais = (magnitude / 100n).toString().replace(/\B(?=(\d{3})+$)/g, '.');
  const rest = (magnitude % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}R$ ${reais},${rest}`;
}

/** The CSP source of an inline script or style: 'sha256-<base64 of the SHA-256 of its exact text>'. */
export function cspHash(content: string): string {
  return `'sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}'`;
}

const HASH_SOURCE = /^'sha256-[A-Za-z0-9+/]{43}='$/;

export type CheckoutHeaderOptions = {
  /** Hashes (as cspHash gives them) of the page's inline styles; none → style-src 'self'. */
  styleHashes?: readonly string[];
  /**
   * Origins a form may lead to beyond the service. Chromium applies form-action to the redirects that
   * follow a form post too, so the card form's 303 to callback_url needs that URL's origin here.
   */
  formActionOrigins?: readonly string[];
};

function checkedHashes(hashes: readonly string[]): string[] {
  for (const hash of hashes) if (!HASH_SOURCE.test(hash)) throw new Error(`Not a CSP sha256 source: ${JSON.stringify(hash)}`);
  return [...hashes];
}

function checkedOrigin(origin: string): string {
  const parsed = URL.canParse(origin) ? new URL(origin) : undefined;
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.origin !== origin)
    throw new Error(`Not an origin: ${JSON.stringify(origin)}`);
  return origin;
}

/**
 * The headers of every checkout page: a strict Content-Security-Policy (nothing by default; scripts
 * only by hash, so no third-party or injected script runs; fetches only to the service, for the Pix
 * status; images from the service or data: URLs, for the QR code; no framing, no <base>), no framing
 * for old browsers either, no referrer (the page URL carries the tx_ref), never cached, no sniffing.
 */
export function checkoutSecurityHeaders(scriptHashes: readonly string[], options: CheckoutHeaderOptions = {}): Record<string, string> {
  const scripts = checkedHashes(scriptHashes);
  const styles = checkedHashes(options.styleHashes ?? []);
  const formTargets = (options.formActionOrigins ?? []).map(checkedOrigin);
  const policy = [
    "default-src 'none'",
    `script-src ${scripts.length > 0 ? scripts.join(' ') : "'none'"}`,
    `style-src ${styles.length > 0 ? styles.join(' ') : "'self'"}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    `form-action ${["'self'", ...formTargets].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': policy,
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
}

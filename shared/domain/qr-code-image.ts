import type { Invoice } from './invoice';

/**
 * A PNG as a data URI (the QR code images of the answers and pages). Apart from the QR encoder
 * (shared/adapters/qrcode/png.ts), so a page that only shows a stored image does not bundle it.
 */
export function pngDataUri(png: Uint8Array): string {
  return `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
}

/**
 * The QR code image a Pix invoice stored at creation, as a PNG data URI (undefined when it has none). The
 * hosted checkout's pages show only this: they never bundle the QR encoder (issue 26's size budget).
 */
export function storedQrCode(invoice: Pick<Invoice, 'pix'>): string | undefined {
  const png = invoice.pix?.qrPng;
  return png instanceof Uint8Array && png.length > 0 ? pngDataUri(png) : undefined;
}

import type { Invoice } from './invoice';
import { pngDataUri } from '../pix/png-data-uri';

/**
 * The QR code image a Pix invoice stored at creation, as a PNG data URI (undefined when it has none). The
 * hosted checkout's pages show only this: they never bundle the QR encoder (issue 26's size budget).
 */
export function storedQrCode(invoice: Pick<Invoice, 'pix'>): string | undefined {
  const png = invoice.pix?.qrPng;
  return png instanceof Uint8Array && png.length > 0 ? pngDataUri(png) : undefined;
}

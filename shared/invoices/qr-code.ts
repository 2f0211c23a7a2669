/**
 * The QR code of a Pix invoice in its answers, apart from view.ts so that the functions that write
 * or move invoices without showing them (card and boleto charges, provider notifications, the boleto
 * page, the workers) do not bundle the QR encoder.
 */
import type { Invoice } from '../domain/invoice';
import { qrCodePngDataUri } from '../adapters/qrcode/png';
import { storedQrCode } from '../domain/qr-code-image';

/** The QR code of a Pix invoice's `copy` as a PNG data URI: the image stored at creation, or drawn now for an older item. */
export async function invoiceQrCode(invoice: Pick<Invoice, 'pix'>): Promise<string | undefined> {
  const { pix } = invoice;
  if (!pix || typeof pix.copy !== 'string') return undefined;
  return storedQrCode(invoice) ?? qrCodePngDataUri(pix.copy);
}

/** Adds the QR code of a Pix invoice (`qrcode`, a PNG data URI) to its view. */
export async function withQrCode(view: Record<string, unknown>, invoice: Pick<Invoice, 'pix'>): Promise<Record<string, unknown>> {
  const qrcode = await invoiceQrCode(invoice);
  return qrcode === undefined ? view : { ...view, qrcode };
}

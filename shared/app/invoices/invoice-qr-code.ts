/**
 * The QR code of a Pix invoice in its answers, apart from the invoice's view so that the functions that
 * write or move invoices without showing them (card and boleto charges, provider notifications, the
 * boleto page, the workers) do not bundle the QR encoder (the drawer comes from shared/wiring/qr-code.ts).
 */
import type { Invoice } from '../../domain/invoice';
import { pngDataUri, storedQrCode } from '../../domain/qr-code-image';
import type { QrCodeDrawer } from '../../ports/qr-code';

/** The QR code of a Pix invoice's `copy` as a PNG data URI: the image stored at creation, or drawn now for an older item. */
export function invoiceQrCode(drawer: QrCodeDrawer, invoice: Pick<Invoice, 'pix'>): string | undefined {
  const { pix } = invoice;
  if (!pix || typeof pix.copy !== 'string') return undefined;
  return storedQrCode(invoice) ?? pngDataUri(drawer.png(pix.copy));
}

/** Adds the QR code of a Pix invoice (`qrcode`, a PNG data URI) to its view. */
export function withQrCode(drawer: QrCodeDrawer, view: Record<string, unknown>, invoice: Pick<Invoice, 'pix'>): Record<string, unknown> {
  const qrcode = invoiceQrCode(drawer, invoice);
  return qrcode === undefined ? view : { ...view, qrcode };
}

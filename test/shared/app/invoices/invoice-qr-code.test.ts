import { describe, expect, it } from 'vitest';
import { invoiceQrCode, withQrCode } from '../../../../shared/app/invoices/invoice-qr-code';
import { pngDataUri } from '../../../../shared/domain/qr-code-image';
import type { QrCodeDrawer } from '../../../../shared/ports/qr-code';

/** A drawer that draws the text's bytes (recognizable) and counts its drawings. */
function drawer(): QrCodeDrawer & { drawn: string[] } {
  const drawn: string[] = [];
  return { drawn, png: (text) => (drawn.push(text), new Uint8Array(Buffer.from(`png of ${text}`))) };
}

/** Issue 13: a Pix invoice's QR code is drawn once at creation and stored; reads answer the stored image. */
describe("a Pix invoice's QR code", () => {
  const copy = '00020101021226900014br.gov.bcb.pix2568pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca2552040000';

  it('answers the image stored with the invoice, as it is (no drawing on read)', () => {
    const qr = drawer();
    const stored = new Uint8Array([137, 80, 78, 71, 1, 2, 3]);
    const item = { reference: 'INV-AAAAAA', pix: { txid: 't', location: 'l', copy, qrPng: stored } };
    expect(invoiceQrCode(qr, item)).toBe(pngDataUri(stored));
    expect(withQrCode(qr, { reference: 'INV-AAAAAA' }, item)).toEqual({ reference: 'INV-AAAAAA', qrcode: pngDataUri(stored) });
    expect(qr.drawn).toEqual([]);
  });

  it('draws it from the copy for an item stored before images were kept (or with an empty one)', () => {
    const qr = drawer();
    expect(invoiceQrCode(qr, { pix: { txid: 't', location: 'l', copy } })).toBe(pngDataUri(Buffer.from(`png of ${copy}`)));
    expect(invoiceQrCode(qr, { pix: { txid: 't', location: 'l', copy, qrPng: new Uint8Array() } })).toBe(pngDataUri(Buffer.from(`png of ${copy}`)));
    expect(qr.drawn).toEqual([copy, copy]);
  });

  it('adds nothing to a boleto or card invoice', () => {
    const qr = drawer();
    expect(invoiceQrCode(qr, {})).toBeUndefined();
    expect(withQrCode(qr, { reference: 'INV-CCCCCC' }, {})).toEqual({ reference: 'INV-CCCCCC' });
    expect(qr.drawn).toEqual([]);
  });
});

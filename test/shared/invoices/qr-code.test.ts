import { describe, expect, it } from 'vitest';
import { invoiceQrCode, withQrCode } from '../../../shared/invoices/qr-code';
import { pngDataUri, qrCodePng, qrCodePngDataUri } from '../../../shared/adapters/qrcode/png';

/** Issue 13: a Pix invoice's QR code is drawn once at creation and stored; reads answer the stored image. */
describe("a Pix invoice's QR code", () => {
  const copy = '00020101021226900014br.gov.bcb.pix2568pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca2552040000';

  it('answers the image stored with the invoice, as it is (no drawing on read)', async () => {
    // A stored image of another text proves the read did not draw the copy again.
    const stored = qrCodePng('stored at creation');
    const item = { reference: 'INV-AAAAAA', pix: { txid: 't', location: 'l', copy, qrPng: new Uint8Array(stored) } };
    expect(await invoiceQrCode(item)).toBe(pngDataUri(stored));
    expect(await invoiceQrCode(item)).not.toBe(await qrCodePngDataUri(copy));
    expect(await withQrCode({ reference: 'INV-AAAAAA' }, item)).toEqual({ reference: 'INV-AAAAAA', qrcode: pngDataUri(stored) });
  });

  it('draws it from the copy for an item stored before images were kept', async () => {
    const item = { reference: 'INV-BBBBBB', pix: { txid: 't', location: 'l', copy } };
    expect(await invoiceQrCode(item)).toBe(await qrCodePngDataUri(copy));
  });

  it('adds nothing to a boleto or card invoice', async () => {
    expect(await invoiceQrCode({})).toBeUndefined();
    expect(await withQrCode({ reference: 'INV-CCCCCC' }, {})).toEqual({ reference: 'INV-CCCCCC' });
  });
});

import QRCode from 'qrcode';

/**
 * A PNG QR code of `text` (e.g. a BR Code) as a 'data:image/png;base64,...' URI: error correction M,
 * the 4-module quiet zone the QR standard requires, about 300 px wide.
 */
export async function qrCodePngDataUri(text: string): Promise<string> {
  if (text.length === 0) throw new Error('QR code text must not be empty');
  return QRCode.toDataURL(text, { type: 'image/png', errorCorrectionLevel: 'M', margin: 4, width: 300 });
}

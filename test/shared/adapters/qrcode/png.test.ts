import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { buildDynamicBrCode } from '../../../../shared/domain/pix-brcode';
import { create } from 'qrcode/lib/core/qrcode.js';
import { qrCodePngDataUri } from '../../../../shared/adapters/qrcode/png';

const PREFIX = 'data:image/png;base64,';

/** Decodes the QR code in a PNG data URI with pngjs + jsQR. */
function decode(uri: string): { text: string; width: number; height: number } {
  expect(uri.startsWith(PREFIX)).toBe(true);
  const png = PNG.sync.read(Buffer.from(uri.slice(PREFIX.length), 'base64'));
  const result = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!result) throw new Error('no QR code found');
  return { text: result.data, width: png.width, height: png.height };
}

describe('qrCodePngDataUri', () => {
  it('encodes a real BR Code that decodes back exactly', async () => {
    const brCode = buildDynamicBrCode({
      location: 'pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25',
      merchantName: 'Padaria São João',
      merchantCity: 'Florianópolis',
    });
    const uri = await qrCodePngDataUri(brCode);
    const decoded = decode(uri);
    expect(decoded.text).toBe(brCode);
    // About 300 px, square, a whole number of pixels per module (the symbol plus its 4-module quiet zone on each side).
    const modulesAcross = create(brCode, { errorCorrectionLevel: 'M' }).modules.size + 8;
    expect(decoded.height).toBe(decoded.width);
    expect(decoded.width % modulesAcross).toBe(0);
    expect(Math.abs(decoded.width - 300)).toBeLessThanOrEqual(modulesAcross / 2);
    // One bit per pixel (IHDR: bit depth 1, grayscale): a few kilobytes.
    const png = Buffer.from(uri.slice(PREFIX.length), 'base64');
    expect([png[24], png[25]]).toEqual([1, 0]);
    expect(png.length).toBeLessThan(4096);
  });

  it('encodes other texts faithfully (different text, different image)', async () => {
    const a = await qrCodePngDataUri('hello pix');
    const b = await qrCodePngDataUri('hello pix!');
    expect(a).not.toBe(b);
    expect(decode(a).text).toBe('hello pix');
    expect(decode(b).text).toBe('hello pix!');
  });

  it('rejects empty text', async () => {
    await expect(qrCodePngDataUri('')).rejects.toThrow();
  });
});

import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { newTotpSecret, otpauthUri } from '../../../../shared/adapters/crypto/totp';
import { otpauthQrDataUri } from '../../../../shared/adapters/crypto/totp-qr';

const PNG_PREFIX = 'data:image/png;base64,';

describe('otpauthQrDataUri', () => {
  it('is a PNG data URI whose QR code decodes back to the URI', () => {
    const uri = otpauthUri({ secret: newTotpSecret(), accountLabel: 'ana@padaria.com.br', issuer: 'Gateway Panel' });
    const dataUri = otpauthQrDataUri(uri);
    expect(dataUri.startsWith(PNG_PREFIX)).toBe(true);
    const png = PNG.sync.read(Buffer.from(dataUri.slice(PNG_PREFIX.length), 'base64'));
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(uri);
  });
});

import { crc32, deflateSync } from 'node:zlib';
import { create } from 'qrcode/lib/core/qrcode.js';

/** The quiet zone the QR standard requires around the symbol, in modules. */
const QUIET_ZONE = 4;
/** About this many pixels wide: each module is a whole number of pixels (the nearest to it). */
const TARGET_WIDTH = 300;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A 1-bit grayscale PNG of a QR matrix (dark modules black, the rest and the quiet zone white), each
 * module `scale` pixels square. One bit per pixel keeps the image a few kilobytes and its deflate
 * well under a millisecond (the general renderer drew 300×300 RGBA pixels: tens of ms per answer).
 */
export function qrMatrixPng(modules: { size: number; data: Uint8Array }, scale: number): Buffer {
  const side = (modules.size + 2 * QUIET_ZONE) * scale;
  const rowBytes = Math.ceil(side / 8);
  const raw = Buffer.alloc((rowBytes + 1) * side, 0);
  for (let y = 0; y < side; y += 1) {
    const row = raw.subarray(y * (rowBytes + 1) + 1, (y + 1) * (rowBytes + 1));
    const my = Math.floor(y / scale) - QUIET_ZONE;
    for (let x = 0; x < side; x += 1) {
      const mx = Math.floor(x / scale) - QUIET_ZONE;
      const dark = my >= 0 && my < modules.size && mx >= 0 && mx < modules.size && modules.data[my * modules.size + mx] === 1;
      // In 1-bit grayscale, 1 is white: set the bit for every light pixel.
      if (!dark) row[x >> 3] = (row[x >> 3] ?? 0) | (0x80 >> (x & 7));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(1, 8); // bit depth
  header.writeUInt8(0, 9); // grayscale
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * A PNG QR code of `text` (e.g. a BR Code) as a 'data:image/png;base64,...' URI: error correction M,
 * the 4-module quiet zone the QR standard requires, about 300 px wide (a whole number of pixels per
 * module).
 */
export function qrCodePngDataUri(text: string): Promise<string> {
  if (text.length === 0) return Promise.reject(new Error('QR code text must not be empty'));
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const scale = Math.max(1, Math.round(TARGET_WIDTH / (modules.size + 2 * QUIET_ZONE)));
  return Promise.resolve(`data:image/png;base64,${qrMatrixPng(modules, scale).toString('base64')}`);
}

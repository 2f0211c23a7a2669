import { crc32, deflateSync } from 'node:zlib';
import { create } from 'qrcode/lib/core/qrcode.js';
import { pngDataUri } from '../../pix/png-data-uri';

export { pngDataUri };

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
  const across = modules.size + 2 * QUIET_ZONE;
  const side = across * scale;
  const rowBytes = Math.ceil(side / 8);
  const stride = rowBytes + 1; // each scanline starts with its filter byte (0: none)
  const raw = Buffer.alloc(stride * side, 0);
  for (let my = 0; my < across; my += 1) {
    // One scanline per module row, copied `scale` times: the rows of a module are identical.
    const first = raw.subarray(my * scale * stride + 1, (my * scale + 1) * stride);
    const y = my - QUIET_ZONE;
    for (let mx = 0; mx < across; mx += 1) {
      const x = mx - QUIET_ZONE;
      const dark = y >= 0 && y < modules.size && x >= 0 && x < modules.size && modules.data[y * modules.size + x] === 1;
      if (dark) continue;
      // In 1-bit grayscale, 1 is white: set the bits of every light pixel of this module.
      for (let px = mx * scale; px < (mx + 1) * scale; px += 1) first[px >> 3] = (first[px >> 3] ?? 0) | (0x80 >> (px & 7));
    }
    for (let copy = 1; copy < scale; copy += 1) first.copy(raw, (my * scale + copy) * stride + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.writeUInt8(1, 8); // bit depth
  header.writeUInt8(0, 9); // grayscale
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * The PNG of the QR code of `text` (e.g. a BR Code): error correction M, the 4-module quiet zone the
 * QR standard requires, about 300 px wide (a whole number of pixels per module).
 */
export function qrCodePng(text: string): Buffer {
  if (text.length === 0) throw new Error('QR code text must not be empty');
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const scale = Math.max(1, Math.round(TARGET_WIDTH / (modules.size + 2 * QUIET_ZONE)));
  return qrMatrixPng(modules, scale);
}

/** The QR code of `text` as a PNG data URI (qrCodePng, then pngDataUri). */
export function qrCodePngDataUri(text: string): Promise<string> {
  try {
    return Promise.resolve(pngDataUri(qrCodePng(text)));
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

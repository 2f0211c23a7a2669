import { qrCodePngDrawer } from '../adapters/qrcode/png';
import type { QrCodeDrawer } from '../ports/qr-code';

/** The QR code drawer (the project's encoder): only the functions that draw a QR code import this file, so only they bundle it. */
export function qrCodeDrawer(): QrCodeDrawer {
  return qrCodePngDrawer;
}

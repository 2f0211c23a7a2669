import { pngDataUri } from '../../domain/qr-code-image';
import { qrCodePng } from '../qrcode/png';

/** The QR code of an enrolment URI as a PNG data URI (the project's QR encoder: shared/adapters/qrcode/png.ts), apart from totp.ts so that only the enrollment pages bundle it. */
export function otpauthQrDataUri(uri: string): string {
  return pngDataUri(qrCodePng(uri));
}

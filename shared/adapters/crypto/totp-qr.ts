import { qrCodePng } from '../qrcode/png';
import { pngDataUri } from '../../pix/png-data-uri';

/** The QR code of an enrolment URI as a PNG data URI (the project's QR encoder: shared/pix/qrcode.ts), apart from totp.ts so that only the enrollment pages bundle it. */
export function otpauthQrDataUri(uri: string): string {
  return pngDataUri(qrCodePng(uri));
}

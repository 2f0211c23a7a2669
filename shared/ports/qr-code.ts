/**
 * Draws the QR code image of a text (a Pix BR Code): a PNG, drawn once when a charge is created and stored
 * with its invoice (shared/adapters/qrcode/png.ts).
 */
export interface QrCodeDrawer {
  /** The PNG of the QR code of `text` (not empty: an empty text throws). */
  png(text: string): Uint8Array;
}

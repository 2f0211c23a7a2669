/** A PNG as a data URI (the QR code images of the answers and pages). Apart from the QR encoder, so a page that only shows a stored image does not bundle it. */
export function pngDataUri(png: Uint8Array): string {
  return `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
}

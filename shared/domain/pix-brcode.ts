/**
 * The BR Code (EMV QRCPS merchant-presented payload) of a dynamic Pix charge, as the Central Bank's
 * Pix manual defines it: the amount and the rest live at the location URL, so the payload has no
 * amount (54) and its txid (62.05) is "***".
 */

export type DynamicBrCodeInput = {
  /** Payload URL without scheme, e.g. "pix.example.com/qr/v2/cobv/9d36b84f...". At most 77 characters. */
  location: string;
  /** Stripped of diacritics and truncated to 25 characters. */
  merchantName: string;
  /** Stripped of diacritics and truncated to 15 characters. */
  merchantCity: string;
};

const PIX_GUI = 'br.gov.bcb.pix';
const MAX_LOCATION = 77;
const MAX_NAME = 25;
const MAX_CITY = 15;

/** One EMV data object: ID (2) + length (2, zero-padded) + value. */
function field(id: string, value: string): string {
  if (value.length > 99) throw new Error(`EMV field ${id} exceeds 99 characters`);
  return id + String(value.length).padStart(2, '0') + value;
}

/** Latin text to printable ASCII: diacritics removed ("São" → "Sao"), other non-ASCII dropped, spaces collapsed. */
function toAscii(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** `text` as ASCII truncated to `max` characters; throws when nothing printable is left. */
function asciiField(text: string, max: number, what: string): string {
  const value = toAscii(text).slice(0, max).trimEnd();
  if (value === '') throw new Error(`${what} has no printable ASCII characters`);
  return value;
}

/**
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR) of the UTF-8 bytes of
 * `text`, as 4 uppercase hex digits. The BR Code's field 63 is this CRC over the payload up to "6304".
 */
export function crc16ccitt(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** The "copia e cola" text (and QR code content) of a dynamic, single-use Pix charge. */
export function buildDynamicBrCode(input: DynamicBrCodeInput): string {
  const { location } = input;
  if (location.length === 0 || location.length > MAX_LOCATION) throw new Error(`Location must have 1 to ${MAX_LOCATION} characters`);
  if (!/^[\x21-\x7e]+$/.test(location)) throw new Error('Location must be printable ASCII without spaces');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) throw new Error('Location must not include the URL scheme');
  const payload =
    field('00', '01') +
    field('01', '12') +
    field('26', field('00', PIX_GUI) + field('25', location)) +
    field('52', '0000') +
    field('53', '986') +
    field('58', 'BR') +
    field('59', asciiField(input.merchantName, MAX_NAME, 'Merchant name')) +
    field('60', asciiField(input.merchantCity, MAX_CITY, 'Merchant city')) +
    field('62', field('05', '***')) +
    '6304';
  return payload + crc16ccitt(payload);
}

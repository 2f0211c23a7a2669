import { randomString } from '../platform/ids';

/** Length of the txids we create; the Pix API accepts 26 to 35 alphanumerics for immediate charges. */
const TXID_LENGTH = 32;

/** A new random txid: 32 characters of [a-zA-Z0-9] drawn with node:crypto randomInt. */
export function newTxid(): string {
  return randomString(TXID_LENGTH);
}

/** Whether `text` is a txid the Pix API accepts for an immediate charge: 26 to 35 characters of [a-zA-Z0-9]. */
export function isValidTxid(text: string): boolean {
  return /^[a-zA-Z0-9]{26,35}$/.test(text);
}

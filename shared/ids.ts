import { randomBytes, randomInt } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LOWER_ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A random string of `length` characters drawn uniformly from `alphabet` (CSPRNG). */
export function randomString(length: number, alphabet: string = ALPHANUMERIC): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet.charAt(randomInt(alphabet.length));
  return out;
}

export function newAccountId(): string {
  return `acct_${randomString(20, LOWER_ALPHANUMERIC)}`;
}

export function newPublicKey(): string {
  return `PUB-${randomString(32)}`;
}

export function newSecretKey(): string {
  return `SEC-${randomString(48)}`;
}

export function newRequestNonce(): string {
  return randomBytes(9).toString('base64url');
}

export function newLedgerEntryId(): string {
  return `led_${randomString(20, LOWER_ALPHANUMERIC)}`;
}

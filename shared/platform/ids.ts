import { randomInt } from 'node:crypto';

/** The characters of randomString by default (and of Pix txids). */
export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
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

/** Ids are counted from this instant: 2026-01-01T00:00:00Z. */
const NUMERIC_ID_EPOCH_MS = Date.UTC(2026, 0, 1);
const NUMERIC_ID_RANDOM_BITS = 4096;

/** The last millisecond this process drew an id in, and the low bits it used there. */
let lastDraw: { ms: number; low: number } | undefined;

/**
 * A time-ordered numeric id below 2^53 (safe in JSON and JavaScript): milliseconds since 2026 times
 * 4096 plus 12 low bits. No counter item, so no hot key; the conditional put of the id's reservation
 * settles the rare collision. The low bits are random at a millisecond's first draw in this process and
 * follow on from it for the next draws in the same millisecond (up to 4,096 distinct ids), so requests
 * one process serves at once never draw the same id (their reads go out together since issue 26); two
 * Lambda containers still draw independently. Good until about 2095.
 */
export function newNumericId(now: Date): number {
  const ms = now.getTime() - NUMERIC_ID_EPOCH_MS;
  const low = lastDraw?.ms === ms ? (lastDraw.low + 1) % NUMERIC_ID_RANDOM_BITS : randomInt(NUMERIC_ID_RANDOM_BITS);
  lastDraw = { ms, low };
  const id = ms * NUMERIC_ID_RANDOM_BITS + low;
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error('The clock is outside the numeric id range');
  return id;
}

/** The lowest and highest numeric id drawn at an instant (for id ranges of a time span). */
export function numericIdBounds(instantMs: number): { lowest: number; highest: number } {
  const base = Math.max(0, instantMs - NUMERIC_ID_EPOCH_MS) * NUMERIC_ID_RANDOM_BITS;
  return { lowest: base, highest: base + NUMERIC_ID_RANDOM_BITS - 1 };
}

/** Numeric ids zero-padded to 16 digits sort in creation order as strings (sort keys). */
export function sortableNumericId(id: number): string {
  return String(id).padStart(16, '0');
}

/** `WD-` and twelve characters: a new withdraw reference (shared/domain/withdrawal.ts WITHDRAW_REFERENCE_SHAPE). */
export function newWithdrawReference(): string {
  return `WD-${randomString(12, 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789')}`;
}

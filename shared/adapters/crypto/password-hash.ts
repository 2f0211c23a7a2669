import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Merchant panel passwords, stored as scrypt hashes (node:crypto, RFC 7914) in a self-describing
 * string: `scrypt$<N>$<r>$<p>$<salt>$<key>`, salt and key in base64url without padding. A stored hash
 * carries its own parameters, so raising the defaults leaves old hashes verifiable (and `needsRehash`
 * says which to replace at the next successful sign-in).
 *
 * The password is normalized with NFKC before hashing (NIST SP 800-63B 5.1.1.2): the same password
 * typed as composed or decomposed accents, or with compatibility forms (full-width letters, ligatures),
 * hashes the same. It is then encoded as UTF-8. Nothing here logs, nor puts a password in an error.
 *
 * Each check holds about 128 MiB for a few hundred milliseconds on the libuv thread pool: size the
 * function's memory, and limit sign-in attempts, accordingly.
 */
export type ScryptParams = {
  /** CPU/memory cost: a power of two. */
  N: number;
  /** Block size. */
  r: number;
  /** Parallelization. */
  p: number;
};

/** The OWASP Password Storage Cheat Sheet's scrypt parameters: N = 2^17, r = 8, p = 1. */
export const DEFAULT_SCRYPT_PARAMS: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 17, r: 8, p: 1 });

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Longest salt or key accepted from a stored hash. */
const MAX_STORED_BYTES = 64;
/** Node's default (32 MiB) is below what N = 2^17, r = 8 needs (128 * N * r bytes, 128 MiB): 256 MiB leaves room. */
const MAX_MEMORY_BYTES = 256 * 1024 * 1024;
const MAX_R = 32;
const MAX_P = 16;
/** Longer than any hash this module writes or accepts: nothing longer is parsed. */
const MAX_STORED_LENGTH = 512;
const PREFIX = 'scrypt';

type ParsedHash = { params: ScryptParams; salt: Buffer; key: Buffer };

/** The memory scrypt allocates for these parameters (as OpenSSL counts it against maxmem). */
function memoryBytes({ N, r, p }: ScryptParams): number {
  return 128 * r * (N + 2) + 128 * r * p;
}

/** Whole parameters that scrypt accepts within the memory allowed: N a power of two from 2, r and p small. */
function validParams(params: ScryptParams): boolean {
  const { N, r, p } = params;
  return (
    Number.isSafeInteger(N) &&
    N >= 2 &&
    (N & (N - 1)) === 0 &&
    Number.isSafeInteger(r) &&
    r >= 1 &&
    r <= MAX_R &&
    Number.isSafeInteger(p) &&
    p >= 1 &&
    p <= MAX_P &&
    memoryBytes(params) <= MAX_MEMORY_BYTES
  );
}

function derive(password: string, salt: Buffer, keyLength: number, { N, r, p }: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, { N, r, p, maxmem: MAX_MEMORY_BYTES }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

function format({ N, r, p }: ScryptParams, salt: Buffer, key: Buffer): string {
  return [PREFIX, N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const DECIMAL = /^[1-9][0-9]{0,9}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Canonical unpadded base64url of `min` to MAX_STORED_BYTES bytes, or undefined. */
function bytesOf(text: string, min: number): Buffer | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.length < min || bytes.length > MAX_STORED_BYTES || bytes.toString('base64url') !== text) return undefined;
  return bytes;
}

/** A stored hash, or undefined when it is not one this module could have written (never throws). */
function parse(stored: unknown): ParsedHash | undefined {
  if (typeof stored !== 'string' || stored.length > MAX_STORED_LENGTH) return undefined;
  const parts = stored.split('$');
  if (parts.length !== 6) return undefined;
  const [prefix, n, r, p, saltText, keyText] = parts;
  if (prefix !== PREFIX || n === undefined || r === undefined || p === undefined || saltText === undefined || keyText === undefined) return undefined;
  if (!DECIMAL.test(n) || !DECIMAL.test(r) || !DECIMAL.test(p)) return undefined;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!validParams(params)) return undefined;
  // A short key would let many passwords match; a short salt would let hashes be precomputed.
  const salt = bytesOf(saltText, SALT_BYTES);
  const key = bytesOf(keyText, KEY_BYTES);
  if (!salt || !key) return undefined;
  return { params, salt, key };
}

/**
 * The stored form of a new password: a fresh 16-byte random salt and a 32-byte scrypt key, under
 * `params` (the OWASP defaults; tests pass a cheaper N). Rejects parameters scrypt or the memory
 * limit would refuse, so every hash it returns can be verified.
 */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  const chosen = { N: params.N, r: params.r, p: params.p };
  if (!validParams(chosen)) throw new Error('Invalid scrypt parameters');
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, chosen);
  return format(chosen, salt, key);
}

/**
 * Whether `password` is the one `stored` was made from: recomputed under the stored hash's own
 * parameters and salt, compared in constant time. A malformed stored hash is false; this never throws.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  try {
    const key = await derive(password, parsed.salt, parsed.key.length, parsed.params);
    return timingSafeEqual(key, parsed.key);
  } catch {
    return false;
  }
}

/**
 * Whether a stored hash should be replaced (after a successful sign-in, with the password just
 * checked): any parameter below the current defaults, or not a hash at all. (Salts and keys shorter
 * than this module writes are not accepted as hashes.)
 */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  const { N, r, p } = parsed.params;
  return N < DEFAULT_SCRYPT_PARAMS.N || r < DEFAULT_SCRYPT_PARAMS.r || p < DEFAULT_SCRYPT_PARAMS.p;
}

/**
 * A hash under the default parameters of no password anyone knows (fixed salt and key, not derived
 * from any password): what a sign-in with an unknown e-mail is checked against.
 */
const DUMMY_HASH = format(
  DEFAULT_SCRYPT_PARAMS,
  Buffer.from('fmjVi_d7ISHVglqW-kNh8g', 'base64url'),
  Buffer.from('QZZyn8_LCOqdHkk6ayNy_yFyy_BsK71jZMjDZQtptZw', 'base64url'),
);

/**
 * The work of `verifyPassword` against a default-parameter hash, its answer thrown away: a sign-in
 * with an unknown e-mail calls it, so that the answer takes as long as a wrong password for a known
 * one and its time does not tell which e-mails have accounts.
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  await verifyPassword(password, DUMMY_HASH);
}

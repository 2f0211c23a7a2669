import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local stack's test clocks (the authenticator's, shared/adapters/crypto/totp-clock.ts; the rate
 * limits', ./rate-clock.ts) keep one offset per key in a folder: a file named by a SHA-256 digest of the
 * clock's name and the key (the key itself, a secret or an account id, is never written), holding a whole
 * number ≥ 0. No file is no offset. Read at each use: the stack's handlers and a test's own read the same.
 */

/** The file holding a key's offset on a clock: `<digest>.<unit>`. */
export function offsetFile(dir: string, clock: string, key: string, unit: string): string {
  return join(dir, `${createHash('sha256').update(`${clock}:${key}`, 'utf8').digest('hex').slice(0, 32)}.${unit}`);
}

/** The offset a file holds (0 without the file); a file that is not a whole number of at most `digits` digits throws, naming `what`. */
export function readOffset(file: string, digits: number, what: string): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  if (!new RegExp(`^\\d{1,${digits}}$`).test(text.trim())) throw new Error(`The ${what} test clock file ${file} holds no offset`);
  return Number(text.trim());
}

import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Secret keys are 48 random characters (about 285 bits), so a fast one-way hash is enough: the key
 * cannot be read back from what is stored, and no dictionary attack applies.
 */
export function hashSecretKey(secretKey: string): string {
  return createHash('sha256').update(secretKey, 'utf8').digest('hex');
}

export function secretKeyMatches(secretKey: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecretKey(secretKey), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

import { describe, expect, it } from 'vitest';
import { burnPasswordCheck, DEFAULT_SCRYPT_PARAMS, hashPassword, needsRehash, verifyPassword } from '../../../../shared/adapters/crypto/password-hash';

/** Cheap parameters for most tests (the defaults cost about 128 MiB and a few hundred milliseconds a hash). */
const CHEAP = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = 'cavalo correto bateria grampo';
const FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** The stored hash with part `index` (0 prefix, 1 N, 2 r, 3 p, 4 salt, 5 key) replaced. */
function withPart(stored: string, index: number, value: string): string {
  const parts = stored.split('$');
  parts[index] = value;
  return parts.join('$');
}

describe('password hashing (scrypt)', () => {
  it('uses the OWASP parameters by default: N = 2^17, r = 8, p = 1, a 16-byte salt and a 32-byte key, and verifies', async () => {
    expect(DEFAULT_SCRYPT_PARAMS).toEqual({ N: 131072, r: 8, p: 1 });
    const stored = await hashPassword(PASSWORD);
    const match = FORMAT.exec(stored);
    expect(match).not.toBeNull();
    expect(match?.slice(1, 4)).toEqual(['131072', '8', '1']);
    expect(Buffer.from(match?.[4] ?? '', 'base64url')).toHaveLength(16);
    expect(Buffer.from(match?.[5] ?? '', 'base64url')).toHaveLength(32);
    expect(stored).not.toContain(PASSWORD);
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
    expect(needsRehash(stored)).toBe(false);
  });

  it('round-trips a password under cheaper parameters, written in the string', async () => {
    const stored = await hashPassword(PASSWORD, CHEAP);
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
  });

  it('refuses a wrong password, one character off or in another letter case', async () => {
    const stored = await hashPassword(PASSWORD, CHEAP);
    expect(await verifyPassword('cavalo correto bateria grampO', stored)).toBe(false);
    expect(await verifyPassword('Cavalo correto bateria grampo', stored)).toBe(false);
    expect(await verifyPassword(`${PASSWORD} `, stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salts each hash: the same password twice gives two different hashes, both verifying', async () => {
    const first = await hashPassword(PASSWORD, CHEAP);
    const second = await hashPassword(PASSWORD, CHEAP);
    expect(first).not.toBe(second);
    expect(first.split('$')[4]).not.toBe(second.split('$')[4]);
    expect(await verifyPassword(PASSWORD, first)).toBe(true);
    expect(await verifyPassword(PASSWORD, second)).toBe(true);
  });

  it('normalizes with NFKC: composed and decomposed accents, full-width letters hash the same', async () => {
    const stored = await hashPassword('pão de queijo com café', CHEAP);
    expect(await verifyPassword('pa\u0303o de queijo com cafe\u0301', stored)).toBe(true);
    const fullWidth = await hashPassword('ｑｕｅｉｊｏ ｍｉｎｅｉｒｏ', CHEAP);
    expect(await verifyPassword('queijo mineiro', fullWidth)).toBe(true);
    expect(await verifyPassword('queijo mineir0', fullWidth)).toBe(false);
  });

  it('answers false, without throwing, for malformed stored hashes, even with the right password', async () => {
    const stored = await hashPassword(PASSWORD, CHEAP);
    const [, , , , salt = '', key = ''] = stored.split('$');
    const malformed = [
      '',
      'scrypt',
      'not a hash',
      '$2b$12$abcdefghijklmnopqrstuv',
      withPart(stored, 0, 'bcrypt'),
      withPart(stored, 1, '1000'),
      withPart(stored, 1, '01024'),
      withPart(stored, 1, '0x400'),
      withPart(stored, 1, '1'),
      withPart(stored, 1, String(2 ** 30)),
      withPart(stored, 2, '0'),
      withPart(stored, 2, '8.0'),
      withPart(stored, 3, '-1'),
      withPart(stored, 3, '100000'),
      withPart(stored, 4, ''),
      withPart(stored, 4, `${salt}==`),
      withPart(stored, 4, salt.replace(/[-_]/g, '+').replace(/^./, '/')),
      withPart(stored, 4, salt.slice(0, 8)),
      withPart(stored, 5, Buffer.from(key, 'base64url').subarray(0, 1).toString('base64url')),
      withPart(stored, 5, Buffer.from(key, 'base64url').subarray(0, 16).toString('base64url')),
      `${stored}$extra`,
      stored.slice(0, -1),
      `${stored}${'A'.repeat(600)}`,
    ];
    for (const text of malformed) await expect(verifyPassword(PASSWORD, text), text).resolves.toBe(false);
    // Neither a stored value of the wrong type (a damaged item) throws.
    await expect(verifyPassword(PASSWORD, undefined as unknown as string)).resolves.toBe(false);
  });

  it('asks for a rehash of weaker parameters or a malformed hash, and not of the defaults', async () => {
    const cheap = await hashPassword(PASSWORD, CHEAP);
    expect(needsRehash(cheap)).toBe(true);
    expect(needsRehash(withPart(cheap, 1, String(2 ** 17)))).toBe(false);
    expect(needsRehash(withPart(cheap, 1, String(2 ** 16)))).toBe(true);
    expect(needsRehash(withPart(withPart(cheap, 1, String(2 ** 17)), 2, '4'))).toBe(true);
    expect(needsRehash(withPart(withPart(withPart(cheap, 1, String(2 ** 16)), 2, '16'), 3, '2'))).toBe(true);
    expect(needsRehash('not a hash')).toBe(true);
  });

  it('refuses to hash under parameters it could not verify', async () => {
    await expect(hashPassword(PASSWORD, { N: 1000, r: 8, p: 1 })).rejects.toThrow(/Invalid scrypt parameters/);
    await expect(hashPassword(PASSWORD, { N: 2 ** 20, r: 8, p: 1 })).rejects.toThrow(/Invalid scrypt parameters/);
    await expect(hashPassword(PASSWORD, { N: 2 ** 10, r: 0, p: 1 })).rejects.toThrow(/Invalid scrypt parameters/);
  });

  it('burns a check against a dummy hash for unknown e-mails: it resolves, with nothing', async () => {
    await expect(burnPasswordCheck(PASSWORD)).resolves.toBeUndefined();
    await expect(burnPasswordCheck('')).resolves.toBeUndefined();
  });
});

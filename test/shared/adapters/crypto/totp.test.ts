import { Secret, TOTP, URI } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { matchTotp, newTotpSecret, otpauthUri, totpCodeAt } from '../../../../shared/adapters/crypto/totp';
import { totpStepAt } from '../../../../shared/domain/panel/totp-steps';

/** RFC 6238 Appendix B's SHA1 seed, the ASCII "12345678901234567890", in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

/** RFC 6238 Appendix B, SHA1: T (unix seconds) and the 8-digit TOTP; 6-digit codes are the last 6 digits. */
const RFC_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1_111_111_109, '07081804'],
  [1_111_111_111, '14050471'],
  [1_234_567_890, '89005924'],
  [2_000_000_000, '69279037'],
  [20_000_000_000, '65353130'],
];

const at = (unixSeconds: number) => new Date(unixSeconds * 1000);

describe('totpCodeAt', () => {
  it('uses the RFC seed as base32 of its ASCII bytes', () => {
    expect(Secret.fromBase32(RFC_SECRET).latin1).toBe('12345678901234567890');
  });

  it.each(RFC_VECTORS)('matches RFC 6238 Appendix B at T = %i', (t, eightDigits) => {
    expect(totpCodeAt(RFC_SECRET, at(t))).toBe(eightDigits.slice(-6));
  });

  it('keeps the leading zeros (a code is text, not a number)', () => {
    expect(totpCodeAt(RFC_SECRET, at(1_234_567_890))).toBe('005924');
  });
});

describe('matchTotp', () => {
  const now = at(1_111_111_111);
  const step = totpStepAt(now);
  const codeOfStep = (s: number) => totpCodeAt(RFC_SECRET, at(s * 30));

  it('matches the code of the current step to that step', () => {
    expect(matchTotp(RFC_SECRET, '050471', now)).toBe(step);
    expect(matchTotp(RFC_SECRET, codeOfStep(step), now)).toBe(step);
  });

  it('accepts the code of the step before and the step after, naming their steps', () => {
    expect(matchTotp(RFC_SECRET, codeOfStep(step - 1), now)).toBe(step - 1);
    expect(matchTotp(RFC_SECRET, codeOfStep(step + 1), now)).toBe(step + 1);
    // T = 1111111109 is the step before 1111111111 in the RFC's own table.
    expect(matchTotp(RFC_SECRET, '081804', now)).toBe(step - 1);
  });

  it('refuses codes two steps away', () => {
    const window = [step - 1, step, step + 1].map(codeOfStep);
    for (const far of [step - 2, step + 2]) {
      const code = codeOfStep(far);
      expect(window).not.toContain(code); // else the refusal below would prove nothing
      expect(matchTotp(RFC_SECRET, code, now)).toBeUndefined();
    }
  });

  it('refuses a wrong code', () => {
    const window = [step - 1, step, step + 1].map(codeOfStep);
    const wrong = ['123456', '000000', '999999'].find((c) => !window.includes(c));
    expect(wrong).toBeDefined();
    expect(matchTotp(RFC_SECRET, wrong ?? '', now)).toBeUndefined();
  });

  it('refuses letters and 5 or 7 digits without throwing', () => {
    expect(matchTotp(RFC_SECRET, '05047a', now)).toBeUndefined();
    expect(matchTotp(RFC_SECRET, 'abcdef', now)).toBeUndefined();
    expect(matchTotp(RFC_SECRET, '50471', now)).toBeUndefined();
    expect(matchTotp(RFC_SECRET, '4050471', now)).toBeUndefined();
    expect(matchTotp(RFC_SECRET, '14050471', now)).toBeUndefined();
    expect(matchTotp(RFC_SECRET, '', now)).toBeUndefined();
  });

  it('accepts a code typed with a space ("287 082")', () => {
    expect(matchTotp(RFC_SECRET, '287 082', at(59))).toBe(1);
    expect(matchTotp(RFC_SECRET, ' 287082 ', at(59))).toBe(1);
  });

  it('never throws on a bad secret or a bad date', () => {
    expect(matchTotp('not base32!', '287082', at(59))).toBeUndefined();
    expect(matchTotp(RFC_SECRET, '287082', new Date(Number.NaN))).toBeUndefined();
  });

  it('works with a new secret at the real clock', () => {
    const secret = newTotpSecret();
    const realNow = new Date();
    expect(matchTotp(secret, totpCodeAt(secret, realNow), realNow)).toBe(totpStepAt(realNow));
  });
});

describe('newTotpSecret', () => {
  it('is 20 random bytes as 32 base32 characters, no padding', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(Secret.fromBase32(secret).bytes.length).toBe(20);
  });

  it('differs each time', () => {
    expect(newTotpSecret()).not.toBe(newTotpSecret());
  });
});

describe('otpauthUri', () => {
  const secret = RFC_SECRET;
  const uri = otpauthUri({ secret, accountLabel: 'ana@padaria.com.br', issuer: 'Gateway Panel' });

  it('is an otpauth://totp URI labelled <issuer>:<label>', () => {
    expect(uri.startsWith('otpauth://totp/Gateway%20Panel:ana%40padaria.com.br?')).toBe(true);
  });

  it('carries the issuer, the secret, SHA1, 6 digits and a 30 s period', () => {
    const params = new URL(uri).searchParams;
    expect(params.get('issuer')).toBe('Gateway Panel');
    expect(params.get('secret')).toBe(secret);
    expect(params.get('algorithm')).toBe('SHA1');
    expect(params.get('digits')).toBe('6');
    expect(params.get('period')).toBe('30');
  });

  it('reads back as the same authenticator (otpauth parses it; its codes are ours)', () => {
    const parsed = URI.parse(uri);
    if (!(parsed instanceof TOTP)) throw new Error('not a TOTP URI');
    expect(parsed.issuer).toBe('Gateway Panel');
    expect(parsed.label).toBe('ana@padaria.com.br');
    expect(parsed.secret.base32).toBe(secret);
    expect([parsed.algorithm, parsed.digits, parsed.period]).toEqual(['SHA1', 6, 30]);
    expect(parsed.generate({ timestamp: 59_000 })).toBe('287082');
  });
});

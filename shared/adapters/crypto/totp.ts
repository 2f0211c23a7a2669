import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { codeDigits, isCodeShaped, TOTP_DIGITS, TOTP_PERIOD_SECONDS, TOTP_WINDOW, totpStepAt } from '../../domain/panel/totp-steps';

/**
 * The panel's authenticator (RFC 6238 TOTP, via otpauth): secrets, the otpauth:// URI and its QR
 * code for enrolment, and matching a typed code to its time step. SHA1, 6 digits, 30 s steps:
 * the one combination every authenticator app supports. Whether a matched step may still be used
 * (codes are used once) is the domain's rule: shared/domain/panel/totp-steps.ts.
 */
const ALGORITHM = 'SHA1';

/** RFC 4226 recommends a 160-bit shared secret. */
const SECRET_BYTES = 20;

/** A new authenticator secret: 20 random bytes, base32 without padding (32 characters), as authenticator apps expect. */
export function newTotpSecret(): string {
  // A fresh copy: the Secret takes the whole ArrayBuffer it is given.
  return new Secret({ buffer: new Uint8Array(randomBytes(SECRET_BYTES)).buffer }).base32;
}

/**
 * The enrolment URI authenticator apps read (usually from its QR code):
 * `otpauth://totp/<issuer>:<label>?issuer=…&secret=…&algorithm=SHA1&digits=6&period=30`.
 */
export function otpauthUri(input: { secret: string; accountLabel: string; issuer: string }): string {
  return new TOTP({
    issuer: input.issuer,
    label: input.accountLabel,
    secret: Secret.fromBase32(input.secret),
    algorithm: ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  }).toString();
}

/**
 * The time step a typed code matches, within TOTP_WINDOW steps of `now` (spaces in the code are
 * ignored). Undefined when it matches none, or the code is not 6 digits, or the secret is not
 * base32: never throws. The caller still checks the step with acceptsStep before accepting it.
 */
export function matchTotp(secret: string, code: string, now: Date): number | undefined {
  if (!isCodeShaped(code) || !Number.isFinite(now.getTime())) return undefined;
  let delta: number | null;
  try {
    delta = TOTP.validate({
      token: codeDigits(code),
      secret: Secret.fromBase32(secret),
      algorithm: ALGORITHM,
      digits: TOTP_DIGITS,
      period: TOTP_PERIOD_SECONDS,
      timestamp: now.getTime(),
      window: TOTP_WINDOW,
    });
  } catch {
    return undefined;
  }
  return delta === null ? undefined : totpStepAt(now) + delta;
}

/** The code an authenticator shows at a moment (for tests, and the panel's browser test, to type). */
export function totpCodeAt(secret: string, at: Date): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    timestamp: at.getTime(),
  });
}

import { offsetFile, readOffset } from '../clocks/offset-file';
import { TOTP_PERIOD_SECONDS } from '../../domain/panel/totp-steps';
import { matchTotp } from './totp';

/**
 * The local stack's test clock of the panel's authenticator (never in AWS: LOCAL_TOTP_CLOCK_DIR is a
 * local-only setting, shared/platform/config.ts). Each authenticator (secret) may have an offset of whole 30-s
 * steps, which the tests move forward instead of waiting for the next step (test/support/totp-clock.ts):
 * the code is matched at now + offset. One file per authenticator, named by a digest of its secret (the
 * secret itself is not written), holding the offset in steps; no file is no offset. Read at each match:
 * the stack's handlers and the handlers a test runs in its own process read the same folder.
 *
 * Per authenticator, not one clock for all: only the test that owns a person moves that person's clock,
 * so a test file running beside it can never move a code it is about to post out of the ±1 window
 * (docs/decisions.md, "Tests: the authenticator's test clock").
 */

/** The file holding an authenticator's offset in the folder: a SHA-256 digest of the secret, never the secret. */
export function totpClockFile(dir: string, secret: string): string {
  return offsetFile(dir, 'totp-clock', secret, 'steps');
}

/** An authenticator's offset in whole steps (0 without a file); a file that is not a whole number ≥ 0 throws. */
export function totpClockOffset(dir: string, secret: string): number {
  return readOffset(totpClockFile(dir, secret), 9, 'authenticator');
}

/** A moment moved forward by whole authenticator steps. */
export function shiftedBySteps(now: Date, offsetSteps: number): Date {
  return new Date(now.getTime() + offsetSteps * TOTP_PERIOD_SECONDS * 1000);
}

/** matchTotp at now + the authenticator's offset in the folder: the panel's match on the local stack. */
export function matchOnTotpClock(dir: string): typeof matchTotp {
  return (secret, code, now) => matchTotp(secret, code, shiftedBySteps(now, totpClockOffset(dir, secret)));
}

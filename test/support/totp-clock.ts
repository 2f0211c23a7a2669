import { renameSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { shiftedBySteps, totpClockFile, totpClockOffset } from '../../shared/adapters/crypto/totp-clock';
import { totpCodeAt } from '../../shared/adapters/crypto/totp';
import { TOTP_PERIOD_SECONDS, totpStepAt } from '../../shared/domain/panel/totp-steps';
import { stack } from './api';

/**
 * The tests' side of the authenticator's test clock (shared/adapters/crypto/totp-clock.ts): codes are
 * computed at the local stack's authenticator time (real now + the authenticator's offset), and when a
 * person's next code is past the server's window the authenticator's clock is moved forward instead of
 * waiting up to 30 s for the next step.
 */

/** Where this run's local stack reads the offsets. */
export function totpClockDir(): string {
  return stack().totpClockDir;
}

/** The plan for a person's next code: its step, and the offset the authenticator needs for the server to accept it. */
export type CodePlan = { step: number; offsetSteps: number };

/**
 * A person's next code (codes are used once and only a later step is accepted): the step after the
 * last used one, or the server's current step if that is later (an older one would be out of the
 * window). When the step is past the server's window (its step + 1), the offset grows so the server's
 * step becomes the code's own: the code stays accepted even if the real clock reaches the next step
 * before the server matches it. The offset never goes back.
 */
export function planNextCode(input: { lastStep: number | undefined; realStep: number; offsetSteps: number }): CodePlan {
  const serverStep = input.realStep + input.offsetSteps;
  const step = input.lastStep === undefined ? serverStep : Math.max(input.lastStep + 1, serverStep);
  const offsetSteps = step > serverStep + 1 ? Math.max(input.offsetSteps, step - input.realStep) : input.offsetSteps;
  return { step, offsetSteps };
}

/**
 * Sets an authenticator's offset to max(current, `atLeast`) steps, written to a new file then renamed
 * over the old one (a reader sees the old offset or the new one, never a part). Only the test owning the
 * person writes its authenticator's file. Returns the offset now in force.
 */
export function advanceTotpClock(dir: string, secret: string, atLeast: number): number {
  if (!Number.isSafeInteger(atLeast) || atLeast < 0) throw new Error(`An authenticator clock offset is a whole number of steps ≥ 0, not ${atLeast}`);
  const current = totpClockOffset(dir, secret);
  if (atLeast <= current) return current;
  const file = totpClockFile(dir, secret);
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, String(atLeast));
  renameSync(temporary, file);
  return atLeast;
}

/** The local stack's authenticator time for a secret: real now + its offset. */
export function authenticatorNow(secret: string, dir = totpClockDir()): Date {
  return shiftedBySteps(new Date(), totpClockOffset(dir, secret));
}

/** The local stack's current authenticator step for a secret. */
export function authenticatorStep(secret: string, dir = totpClockDir()): number {
  return totpStepAt(authenticatorNow(secret, dir));
}

/**
 * The code of a person's next step (see planNextCode), the authenticator's clock moved forward when
 * needed: computed now, right before the caller posts it. Returns the code and the step it used.
 */
export function nextCode(secret: string, lastStep: number | undefined, dir = totpClockDir()): { code: string; step: number } {
  const plan = planNextCode({ lastStep, realStep: totpStepAt(new Date()), offsetSteps: totpClockOffset(dir, secret) });
  advanceTotpClock(dir, secret, plan.offsetSteps);
  return { code: totpCodeAt(secret, new Date(plan.step * TOTP_PERIOD_SECONDS * 1000)), step: plan.step };
}

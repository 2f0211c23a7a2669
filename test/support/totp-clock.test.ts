import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { matchOnTotpClock, totpClockOffset } from '../../shared/adapters/crypto/totp-clock';
import { newTotpSecret } from '../../shared/adapters/crypto/totp';
import { TOTP_WINDOW, totpStepAt } from '../../shared/domain/panel/totp-steps';
import { advanceTotpClock, nextCode, planNextCode } from './totp-clock';

/** The tests' side of the authenticator's test clock: which step a person's next code takes, and moving the clock. */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'totp-clock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('planNextCode', () => {
  const realStep = 1000;

  it("takes the server's step for a first code (enrolment), the clock untouched", () => {
    expect(planNextCode({ lastStep: undefined, realStep, offsetSteps: 0 })).toEqual({ step: 1000, offsetSteps: 0 });
    expect(planNextCode({ lastStep: undefined, realStep, offsetSteps: 4 })).toEqual({ step: 1004, offsetSteps: 4 });
  });

  it('takes the step after the last one while it is inside the window (server step + 1), the clock untouched', () => {
    expect(planNextCode({ lastStep: 999, realStep, offsetSteps: 0 })).toEqual({ step: 1000, offsetSteps: 0 });
    expect(planNextCode({ lastStep: 1000, realStep, offsetSteps: 0 })).toEqual({ step: 1001, offsetSteps: 0 });
  });

  it("moves the authenticator's clock so the server's step is the code's own when the next step is past the window, instead of waiting", () => {
    expect(planNextCode({ lastStep: 1001, realStep, offsetSteps: 0 })).toEqual({ step: 1002, offsetSteps: 2 });
    expect(planNextCode({ lastStep: 1006, realStep, offsetSteps: 3 })).toEqual({ step: 1007, offsetSteps: 7 });
  });

  it("never takes a step older than the server's (a last step far behind, or a clock moved since): it would be out of the window", () => {
    expect(planNextCode({ lastStep: 900, realStep, offsetSteps: 0 })).toEqual({ step: 1000, offsetSteps: 0 });
    expect(planNextCode({ lastStep: 1001, realStep, offsetSteps: 5 })).toEqual({ step: 1005, offsetSteps: 5 });
  });

  it('keeps every planned code inside the window at the server step it was planned at, and at the next real step', () => {
    for (let lastStep = 990; lastStep <= 1010; lastStep++) {
      for (const offsetSteps of [0, 1, 2, 9]) {
        // Only ever a last step the server accepted: within its window at some earlier moment.
        if (lastStep > realStep + offsetSteps + TOTP_WINDOW) continue;
        const plan = planNextCode({ lastStep, realStep, offsetSteps });
        expect(plan.step).toBeGreaterThan(lastStep);
        expect(plan.offsetSteps).toBeGreaterThanOrEqual(offsetSteps);
        for (const laterReal of [realStep, realStep + 1]) {
          expect(Math.abs(plan.step - (laterReal + plan.offsetSteps)), `${lastStep}/${offsetSteps}/${laterReal}`).toBeLessThanOrEqual(TOTP_WINDOW);
        }
      }
    }
  });
});

describe('advanceTotpClock', () => {
  it('sets max(current, asked): never back, and leaves no temporary file', () => {
    const secret = newTotpSecret();
    expect(advanceTotpClock(dir, secret, 3)).toBe(3);
    expect(advanceTotpClock(dir, secret, 2)).toBe(3);
    expect(totpClockOffset(dir, secret)).toBe(3);
    expect(advanceTotpClock(dir, secret, 5)).toBe(5);
    expect(totpClockOffset(dir, secret)).toBe(5);
    expect(readdirSync(dir)).toHaveLength(1);
  });

  it('writes nothing for an offset of 0 and refuses one that is not a whole number ≥ 0', () => {
    expect(advanceTotpClock(dir, newTotpSecret(), 0)).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
    for (const bad of [-1, 1.5, Number.NaN]) expect(() => advanceTotpClock(dir, newTotpSecret(), bad)).toThrow(/whole number/);
  });
});

describe('nextCode', () => {
  it("gives codes the local stack's match accepts one after another, with no wait, each a later step", () => {
    const secret = newTotpSecret();
    const match = matchOnTotpClock(dir);
    let last: number | undefined;
    const started = Date.now();
    for (let i = 0; i < 6; i++) {
      const { code, step } = nextCode(secret, last, dir);
      const matched = match(secret, code, new Date());
      expect(matched).toBe(step);
      if (last !== undefined) expect(step).toBeGreaterThan(last);
      last = step;
    }
    // Six codes of six steps: the clock moved (the last step at least 4 past the real one), nobody waited 30 s.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(last).toBeGreaterThanOrEqual(totpStepAt(new Date()) + 4);
    expect(totpClockOffset(dir, secret)).toBeGreaterThanOrEqual(3);
  });
});

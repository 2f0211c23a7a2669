import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newTotpSecret, totpCodeAt } from '../../../../shared/adapters/crypto/totp';
import { matchOnTotpClock, shiftedBySteps, totpClockFile, totpClockOffset } from '../../../../shared/adapters/crypto/totp-clock';
import { totpStepAt } from '../../../../shared/domain/panel/totp-steps';

/** The local stack's authenticator test clock: one offset file per authenticator, read at each match. */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'totp-clock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const now = new Date(1_700_000_000_000);
const step = totpStepAt(now);
const codeOfStep = (secret: string, s: number) => totpCodeAt(secret, new Date(s * 30_000));

describe('totpClockFile', () => {
  it('is named by a digest of the secret, never the secret, one per authenticator', () => {
    const [a, b] = [newTotpSecret(), newTotpSecret()];
    const file = totpClockFile(dir, a);
    expect(file.startsWith(`${dir}/`)).toBe(true);
    expect(file).not.toContain(a);
    expect(file).toMatch(/\/[0-9a-f]{32}\.steps$/);
    expect(totpClockFile(dir, a)).toBe(file);
    expect(totpClockFile(dir, b)).not.toBe(file);
  });
});

describe('totpClockOffset', () => {
  it('is 0 without a file, and the whole number of steps a file holds', () => {
    const secret = newTotpSecret();
    expect(totpClockOffset(dir, secret)).toBe(0);
    writeFileSync(totpClockFile(dir, secret), '7');
    expect(totpClockOffset(dir, secret)).toBe(7);
    expect(totpClockOffset(dir, newTotpSecret())).toBe(0);
  });

  it('throws on a file that holds no whole number of steps (a broken clock is never read as the real one)', () => {
    const secret = newTotpSecret();
    for (const text of ['', '-1', '1.5', 'abc', '1e3']) {
      writeFileSync(totpClockFile(dir, secret), text);
      expect(() => totpClockOffset(dir, secret), JSON.stringify(text)).toThrow(/holds no offset/);
    }
  });

  it('throws when the folder cannot be read as a folder (anything but a missing file)', () => {
    const notAFolder = join(dir, 'file');
    writeFileSync(notAFolder, '');
    expect(() => totpClockOffset(notAFolder, newTotpSecret())).toThrow();
  });
});

describe('shiftedBySteps', () => {
  it('moves a moment by whole 30-s steps', () => {
    expect(shiftedBySteps(now, 0).getTime()).toBe(now.getTime());
    expect(shiftedBySteps(now, 3).getTime()).toBe(now.getTime() + 90_000);
    expect(totpStepAt(shiftedBySteps(now, 3))).toBe(step + 3);
  });
});

describe('matchOnTotpClock', () => {
  it("matches at now + the authenticator's offset, and returns the shifted step", () => {
    const secret = newTotpSecret();
    const match = matchOnTotpClock(dir);
    const ahead = codeOfStep(secret, step + 3);
    expect(match(secret, codeOfStep(secret, step), now)).toBe(step);
    expect(match(secret, ahead, now)).toBeUndefined();
    writeFileSync(totpClockFile(dir, secret), '3');
    expect(match(secret, ahead, now)).toBe(step + 3);
    // The window is ±1 step around the shifted time: the real step's code is now too old.
    expect(match(secret, codeOfStep(secret, step + 2), now)).toBe(step + 2);
    expect(match(secret, codeOfStep(secret, step), now)).toBeUndefined();
  });

  it("leaves every other authenticator at its own time (an offset is one authenticator's)", () => {
    const [moved, other] = [newTotpSecret(), newTotpSecret()];
    writeFileSync(totpClockFile(dir, moved), '5');
    const match = matchOnTotpClock(dir);
    expect(match(other, codeOfStep(other, step), now)).toBe(step);
    expect(match(other, codeOfStep(other, step + 5), now)).toBeUndefined();
  });

  it('reads the offset at each match (a test moves it between two codes)', () => {
    const secret = newTotpSecret();
    const match = matchOnTotpClock(dir);
    expect(match(secret, codeOfStep(secret, step + 2), now)).toBeUndefined();
    writeFileSync(totpClockFile(dir, secret), '2');
    expect(match(secret, codeOfStep(secret, step + 2), now)).toBe(step + 2);
  });
});

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchTotp, newTotpSecret, totpCodeAt } from '../../../shared/adapters/crypto/totp';
import { totpClockFile } from '../../../shared/adapters/crypto/totp-clock';
import { totpStepAt } from '../../../shared/domain/panel/totp-steps';
import { totpMatch } from '../../../shared/wiring/panel';

const now = new Date(1_700_000_000_000);
const step = totpStepAt(now);
const codeOfStep = (secret: string, s: number) => totpCodeAt(secret, new Date(s * 30_000));

describe("the panel's match (shared/wiring/panel.ts)", () => {
  it('is the pure matchTotp itself without a test clock (every deployed function), the clock only with one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'totp-clock-'));
    expect(totpMatch(undefined)).toBe(matchTotp);
    const secret = newTotpSecret();
    writeFileSync(totpClockFile(dir, secret), '4');
    expect(totpMatch(dir)(secret, codeOfStep(secret, step + 4), now)).toBe(step + 4);
    expect(totpMatch(undefined)(secret, codeOfStep(secret, step + 4), now)).toBeUndefined();
    // Matching reads and never writes the folder.
    expect(readdirSync(dir)).toEqual([totpClockFile(dir, secret).slice(dir.length + 1)]);
    expect(readFileSync(totpClockFile(dir, secret), 'utf8')).toBe('4');
    rmSync(dir, { recursive: true, force: true });
  });
});

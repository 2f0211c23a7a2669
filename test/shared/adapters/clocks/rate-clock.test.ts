import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { onRateClock, rateClockFile, rateClockOffset } from '../../../../shared/adapters/clocks/rate-clock';
import type { GateStore } from '../../../../shared/ports/gate';

const dirs: string[] = [];
function clockDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rate-clock-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A gate store that records the times it is asked to count at. */
function recordingStore() {
  const seen: { key: string; nowMs: number }[] = [];
  const quota = { limit: 60, remaining: 59, resetSeconds: 60 };
  const store: GateStore = {
    countAccountCall: async (hit) => {
      seen.push({ key: hit.accountId, nowMs: hit.nowMs });
      return { account: undefined, quota };
    },
    countIpCall: async (hit) => {
      seen.push({ key: hit.ip, nowMs: hit.nowMs });
      return quota;
    },
    keyState: async () => ({ keyVersion: 1, disabled: false }),
  };
  return { store, seen };
}

describe('the rate limits test clock (local stack only)', () => {
  it('counts each key at now + its own offset, and keys without a file at now', async () => {
    const dir = clockDir();
    writeFileSync(rateClockFile(dir, 'acct-1'), '52000');
    writeFileSync(rateClockFile(dir, '198.51.100.7'), '1500\n');
    const { store, seen } = recordingStore();
    const clocked = onRateClock(store, dir);
    await clocked.countAccountCall({ accountId: 'acct-1', keyVersion: 1, limit: 60, nowMs: 1_000, withAccount: false });
    await clocked.countAccountCall({ accountId: 'acct-2', keyVersion: 1, limit: 60, nowMs: 1_000, withAccount: false });
    await clocked.countIpCall({ limitClass: 'auth', ip: '198.51.100.7', limit: 10, nowMs: 2_000 });
    expect(seen).toEqual([
      { key: 'acct-1', nowMs: 53_000 },
      { key: 'acct-2', nowMs: 1_000 },
      { key: '198.51.100.7', nowMs: 3_500 },
    ]);
    expect(await clocked.keyState('acct-1')).toEqual({ keyVersion: 1, disabled: false });
  });

  it('names its files by a digest, never the key, and refuses a file that holds no offset', () => {
    const dir = clockDir();
    writeFileSync(rateClockFile(dir, 'acct-secretish'), 'soon');
    expect(readdirSync(dir).join()).not.toContain('acct-secretish');
    expect(() => rateClockOffset(dir, 'acct-secretish')).toThrow('holds no offset');
    expect(rateClockOffset(dir, 'nobody')).toBe(0);
  });
});

import { randomBytes } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { rateClockFile, rateClockOffset } from '../../shared/adapters/clocks/rate-clock';
import { stack } from './api';

/**
 * The tests' side of the rate limits' test clock (shared/adapters/clocks/rate-clock.ts): a test moves
 * the clock of a key it owns (its account's id, its client address) forward instead of waiting for a
 * minute to pass. The offset never goes back (a sliding log's entries are never dated after its now).
 */

/** The time the local stack counts a key's calls at: real now + the key's offset. */
export function rateClockNow(key: string, dir = stack().rateClockDir): number {
  return Date.now() + rateClockOffset(dir, key);
}

/** Sets a key's offset to max(current, `atLeastMs`), written to a new file then renamed over the old one; returns the offset in force. */
export function advanceRateClock(key: string, atLeastMs: number, dir = stack().rateClockDir): number {
  if (!Number.isSafeInteger(atLeastMs) || atLeastMs < 0) throw new Error(`A rate clock offset is a whole number of ms ≥ 0, not ${atLeastMs}`);
  const current = rateClockOffset(dir, key);
  if (atLeastMs <= current) return current;
  const file = rateClockFile(dir, key);
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, String(atLeastMs));
  renameSync(temporary, file);
  return atLeastMs;
}

/** Moves several keys' clocks together so that each counts at `targetMs` (plus whatever real time passes after), never backwards. */
export function setRateClocksTo(keys: readonly string[], targetMs: number, dir = stack().rateClockDir): void {
  const offset = Math.max(0, Math.ceil(targetMs - Date.now()));
  for (const key of keys) advanceRateClock(key, offset, dir);
}

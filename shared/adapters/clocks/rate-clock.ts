import { offsetFile, readOffset } from './offset-file';
import type { GateStore } from '../../ports/gate';

/**
 * The local stack's test clock of the rate limits (never in AWS: LOCAL_RATE_CLOCK_DIR is a local-only
 * setting, shared/platform/config.ts), as the authenticator's (shared/adapters/crypto/totp-clock.ts): each counted key (an
 * account, a client address) may have an offset in milliseconds, which a test moves forward instead of
 * waiting for the next minute; the call is counted at now + offset. One file per key, named by a digest
 * of it; no file is no offset. Read at each count, so the stack's handlers and a test's own see the same.
 * Per key, never one clock for all: a test moves only the clocks of the account and address it owns.
 */

/** The file holding a counted key's offset: a SHA-256 digest of the key (an account id or an address). */
export function rateClockFile(dir: string, key: string): string {
  return offsetFile(dir, 'rate-clock', key, 'ms');
}

/** A key's offset in milliseconds (0 without a file); a file that is not a whole number ≥ 0 throws. */
export function rateClockOffset(dir: string, key: string): number {
  return readOffset(rateClockFile(dir, key), 12, 'rate-limit');
}

/** A gate store whose counts run on the test clock: each call counted at now + its key's offset (the account's, or the address's). */
export function onRateClock(store: GateStore, dir: string): GateStore {
  return {
    ...store,
    countAccountCall: (hit) => store.countAccountCall({ ...hit, nowMs: hit.nowMs + rateClockOffset(dir, hit.accountId) }),
    countIpCall: (hit) => store.countIpCall({ ...hit, nowMs: hit.nowMs + rateClockOffset(dir, hit.ip) }),
  };
}

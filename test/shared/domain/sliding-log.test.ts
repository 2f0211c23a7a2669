import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  busiestWindow,
  cutoffOf,
  decide,
  isCurrentLog,
  logQuota,
  MAX_LOGGED_LIMIT,
  normalizeLog,
  retryAfterSeconds,
  usesSlidingLog,
  WINDOW_MS,
} from '../../../shared/domain/sliding-log';

const T = 1_791_979_200_000;

describe('decide', () => {
  it('admits while a slot was never used, and appends the call', () => {
    expect(decide([0, 0, T - 5], T)).toEqual({ allowed: true, log: [0, T - 5, T] });
  });

  it('refuses while the oldest of the last L calls is younger than 60 s, with the exact seconds until it leaves', () => {
    expect(decide([T - 59_000, T - 1000, T - 10], T)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(decide([T - 30_000, T - 1000, T - 10], T)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(decide([T - 30_500, T - 1000], T)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(decide([T - 1, T], T)).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });

  it('admits exactly when the oldest call is 60 s old (the window is (now - 60 s, now])', () => {
    expect(decide([T - WINDOW_MS, T - 1], T)).toEqual({ allowed: true, log: [T - 1, T] });
    expect(decide([T - WINDOW_MS + 1, T - 1], T).allowed).toBe(false);
  });

  it('does not care about minute boundaries: 10 calls at :59 block the next ones at :00 for 59 s', () => {
    const late = T + 59_000; // 59 s into a clock minute
    let log = normalizeLog(undefined, 10);
    for (let i = 0; i < 10; i += 1) {
      const d = decide(log, late + i);
      if (!d.allowed) throw new Error('should be admitted');
      log = d.log;
    }
    const nextMinute = T + 60_500;
    expect(decide(log, nextMinute)).toEqual({ allowed: false, retryAfterSeconds: 59 });
  });

  it('never admits more than L calls in any 60 s window, whatever the arrival times (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(fc.integer({ min: 0, max: 5_000 }), { maxLength: 120 }), (limit, gaps) => {
        let log = normalizeLog(undefined, limit);
        let now = T;
        const admitted: number[] = [];
        for (const gap of gaps) {
          now += gap;
          const d = decide(log, now);
          if (d.allowed) {
            log = d.log;
            admitted.push(now);
          } else {
            // Retry-After is exact to the second: a second sooner the call is still refused, after it admitted.
            expect(decide(log, now + d.retryAfterSeconds * 1000).allowed).toBe(true);
            expect(decide(log, now + (d.retryAfterSeconds - 1) * 1000).allowed).toBe(false);
          }
        }
        expect(busiestWindow(admitted)).toBeLessThanOrEqual(limit);
      }),
    );
  });

  it('admits every call when they are spaced at least 60 s / L apart (the limit is reachable)', () => {
    const limit = 10;
    let log = normalizeLog(undefined, limit);
    for (let i = 0; i < 50; i += 1) {
      const d = decide(log, T + i * (WINDOW_MS / limit));
      expect(d.allowed, `call ${i}`).toBe(true);
      if (d.allowed) log = d.log;
    }
  });
});

describe('normalizeLog and isCurrentLog', () => {
  it('pads a missing log with free slots', () => {
    expect(normalizeLog(undefined, 3)).toEqual([0, 0, 0]);
    expect(isCurrentLog(undefined, 3)).toBe(false);
  });

  it('keeps the most recent entries of a log written under a higher limit', () => {
    expect(normalizeLog([1, 2, 3, 4, 5], 3)).toEqual([3, 4, 5]);
    expect(isCurrentLog([1, 2, 3, 4, 5], 3)).toBe(false);
  });

  it('pads a log written under a lower limit at the front, keeping its order', () => {
    expect(normalizeLog([7, 8], 4)).toEqual([0, 0, 7, 8]);
  });

  it('drops entries that are not finite numbers', () => {
    expect(normalizeLog([1, 'x', null, Number.NaN, 2], 2)).toEqual([1, 2]);
    expect(normalizeLog('nope', 2)).toEqual([0, 0]);
    expect(isCurrentLog([1, 'x'], 2)).toBe(false);
  });

  it('accepts exactly `limit` numbers', () => {
    expect(isCurrentLog([0, 5, 9], 3)).toBe(true);
  });
});

describe('retryAfterSeconds and cutoffOf', () => {
  it('rounds up to whole seconds, at least 1', () => {
    expect(retryAfterSeconds(T, T)).toBe(60);
    expect(retryAfterSeconds(T - 59_999, T)).toBe(1);
    expect(retryAfterSeconds(T - 60_000, T)).toBe(1);
    expect(retryAfterSeconds(T - 10_001, T)).toBe(50);
  });

  it('never exceeds the window, even when a concurrent call stamped the oldest entry after now', () => {
    expect(retryAfterSeconds(T + 40, T)).toBe(60);
    expect(decide([T + 40, T + 50], T)).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });

  it('puts the cutoff one window back', () => {
    expect(cutoffOf(T)).toBe(T - 60_000);
    expect(cutoffOf(T, 1000)).toBe(T - 1000);
  });
});

describe('busiestWindow', () => {
  it('counts the most calls in any half-open 60 s window', () => {
    expect(busiestWindow([])).toBe(0);
    expect(busiestWindow([0, 59_999, 60_000, 60_001])).toBe(3);
    expect(busiestWindow([0, 60_000, 120_000])).toBe(1);
  });
});

describe('usesSlidingLog', () => {
  it('logs every limit of the spec and falls back to fixed windows only above MAX_LOGGED_LIMIT', () => {
    for (const limit of [10, 30, 60, 120, 300, MAX_LOGGED_LIMIT]) expect(usesSlidingLog(limit)).toBe(true);
    expect(usesSlidingLog(MAX_LOGGED_LIMIT + 1)).toBe(false);
    expect(usesSlidingLog(100_000)).toBe(false);
  });
});

describe('logQuota (the RateLimit-* headers)', () => {
  const now = 1_000_000;
  it('counts the calls in the last 60 s as spent and free slots as left', () => {
    expect(logQuota([0, 0, 0], 3, now)).toEqual({ limit: 3, remaining: 3, resetSeconds: 0 });
    expect(logQuota([0, 0, now], 3, now)).toEqual({ limit: 3, remaining: 2, resetSeconds: 60 });
    // A call 59.5 s ago leaves in 0.5 s (rounded up to 1); one exactly 60 s ago is out of the window.
    expect(logQuota([now - 60_000, now - 59_500, now - 1_000], 3, now)).toEqual({ limit: 3, remaining: 1, resetSeconds: 1 });
    expect(logQuota([now - 30_000, now - 20_000, now], 3, now)).toEqual({ limit: 3, remaining: 0, resetSeconds: 30 });
  });
});

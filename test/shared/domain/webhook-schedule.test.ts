import { describe, expect, it } from 'vitest';
import { queues } from '../../../shared/platform/queues';
import { POST_TIMEOUT_MS } from '../../../shared/adapters/webhooks/deliver';
import { ATTEMPT_LEASE_SECONDS, deliveryTurn, MAX_ATTEMPTS, RETRY_WAITS_MINUTES, nextRetryDelaySeconds } from '../../../shared/domain/webhook-schedule';

/** Spec 6.5: waits of 1, 5, 15, 60, 180, 360 and 720 minutes, written out in seconds by hand. */
const REAL_SCHEDULE_SECONDS: [number, number][] = [
  [1, 60],
  [2, 300],
  [3, 900],
  [4, 3_600],
  [5, 10_800],
  [6, 21_600],
  [7, 43_200],
];

describe('webhook retry schedule', () => {
  it('allows 8 attempts in all: the first one plus one retry per wait', () => {
    expect(MAX_ATTEMPTS).toBe(8);
    expect(RETRY_WAITS_MINUTES).toEqual([1, 5, 15, 60, 180, 360, 720]);
    expect(1 + RETRY_WAITS_MINUTES.length).toBe(MAX_ATTEMPTS);
  });

  it.each(REAL_SCHEDULE_SECONDS)('after %i failed attempts waits %i seconds', (attempts, seconds) => {
    expect(nextRetryDelaySeconds(attempts)).toBe(seconds);
  });

  it('stops after the eighth attempt', () => {
    expect(nextRetryDelaySeconds(8)).toBeNull();
    expect(nextRetryDelaySeconds(9)).toBeNull();
    expect(nextRetryDelaySeconds(100)).toBeNull();
  });

  it('walking the schedule from the first attempt gives exactly 8 attempts over 1361 minutes', () => {
    let attempts = 1;
    let waited = 0;
    for (let delay = nextRetryDelaySeconds(attempts); delay !== null; delay = nextRetryDelaySeconds(attempts)) {
      waited += delay;
      attempts += 1;
    }
    expect(attempts).toBe(8);
    expect(waited).toBe((1 + 5 + 15 + 60 + 180 + 360 + 720) * 60);
  });

  it('scales the waits and rounds to whole seconds', () => {
    expect(nextRetryDelaySeconds(1, 0.01)).toBe(1); // 0.6 s
    expect(nextRetryDelaySeconds(2, 0.01)).toBe(3);
    expect(nextRetryDelaySeconds(3, 0.5)).toBe(450);
    expect(nextRetryDelaySeconds(4, 1 / 60)).toBe(60); // minutes become seconds
    expect(nextRetryDelaySeconds(7, 1 / 60)).toBe(720);
    expect(nextRetryDelaySeconds(1, 0.001)).toBe(0); // 0.06 s rounds down
    expect(nextRetryDelaySeconds(5, 0)).toBe(0);
    expect(nextRetryDelaySeconds(8, 0.01)).toBeNull();
  });

  it('is not capped by any SQS limit: waits are chains of delays, not visibility timeouts', () => {
    expect(nextRetryDelaySeconds(7, 2)).toBe(86_400);
    expect(nextRetryDelaySeconds(6, 3)).toBe(64_800);
  });

  it('refuses attempt counts below 1 or not whole, and a bad scale', () => {
    expect(() => nextRetryDelaySeconds(0)).toThrow(RangeError);
    expect(() => nextRetryDelaySeconds(-1)).toThrow(RangeError);
    expect(() => nextRetryDelaySeconds(1.5)).toThrow(RangeError);
    expect(() => nextRetryDelaySeconds(Number.NaN)).toThrow(RangeError);
    expect(() => nextRetryDelaySeconds(1, -1)).toThrow(RangeError);
    expect(() => nextRetryDelaySeconds(1, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('whose turn it is to attempt a delivery', () => {
  const now = new Date('2026-11-23T12:00:00.000Z');
  const later = (ms: number) => new Date(now.getTime() + ms).toISOString();

  it('a delivery never attempted, or pending and due, is open', () => {
    expect(deliveryTurn(undefined, now)).toEqual({ kind: 'open' });
    expect(deliveryTurn({ status: 'pending', nextAttemptAt: later(-5_000) }, now)).toEqual({ kind: 'open' });
    expect(deliveryTurn({ status: 'pending', nextAttemptAt: null, claimUntil: later(-1) }, now)).toEqual({ kind: 'open' });
  });

  it('a delivery that succeeded or failed is closed', () => {
    expect(deliveryTurn({ status: 'succeeded', nextAttemptAt: null }, now)).toEqual({ kind: 'closed' });
    expect(deliveryTurn({ status: 'failed', nextAttemptAt: null }, now)).toEqual({ kind: 'closed' });
  });

  it('an attempt holding the lease makes the others wait for its end, in whole seconds', () => {
    expect(deliveryTurn({ status: 'pending', claimUntil: later(60_000) }, now)).toEqual({ kind: 'wait', seconds: 60 });
    expect(deliveryTurn({ status: 'pending', claimUntil: later(200) }, now)).toEqual({ kind: 'wait', seconds: 1 });
  });

  it('an attempt not due yet waits for its time; up to a second early is on time (SQS waits are whole seconds)', () => {
    expect(deliveryTurn({ status: 'pending', nextAttemptAt: later(300_000) }, now)).toEqual({ kind: 'wait', seconds: 300 });
    expect(deliveryTurn({ status: 'pending', nextAttemptAt: later(1_000) }, now)).toEqual({ kind: 'open' });
    expect(deliveryTurn({ status: 'pending', nextAttemptAt: later(1_001) }, now)).toEqual({ kind: 'wait', seconds: 2 });
    expect(deliveryTurn({ status: 'pending', nextAttemptAt: later(60_000), claimUntil: later(90_000) }, now)).toEqual({ kind: 'wait', seconds: 90 });
  });

  it('the lease outlasts the POST (10 s) and the whole worker run, so an expired lease belongs to an attempt that is over', () => {
    expect(POST_TIMEOUT_MS).toBe(10_000);
    expect(ATTEMPT_LEASE_SECONDS * 1000).toBeGreaterThan(POST_TIMEOUT_MS);
    expect(ATTEMPT_LEASE_SECONDS).toBeGreaterThanOrEqual(queues.webhooks.workerTimeoutSeconds);
  });
});

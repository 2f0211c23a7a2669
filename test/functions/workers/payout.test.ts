import { describe, expect, it } from 'vitest';
import { afterBankFailure, type PayoutMessage, payoutRetryDelaySeconds } from '../../../functions/workers/payout';
import { hopDelaySeconds, MAX_DELAY_SECONDS } from '../../../shared/domain/delay-hops';

const policy = { retryScale: 1, retryWindowSeconds: 86_400 };

describe('payout retries on SQS delays', () => {
  it('waits 5 s doubling up to 15 minutes between bank requests', () => {
    expect([1, 2, 3, 4, 8, 9, 10, 50].map((n) => payoutRetryDelaySeconds(n, 1))).toEqual([5, 10, 20, 40, 640, 900, 900, 900]);
    expect(payoutRetryDelaySeconds(3, 0.01)).toBe(0);
  });

  it('a 24-hour bank outage: retried the whole window in hops of at most 15 minutes, the first failure kept, then the DLQ', () => {
    const start = new Date('2026-11-23T00:00:00Z');
    let now = start;
    let message: PayoutMessage = { reference: 'WD-AAAAAAAAAAAA' };
    let requests = 1;
    let hops = 0;
    for (;;) {
      const decision = afterBankFailure(message, now, policy);
      if (decision.kind === 'give-up') break;
      expect(decision.next.firstFailedAt).toBe(start.toISOString());
      message = decision.next;
      // The queue hands it back when due, one delay (≤ 900 s) at a time.
      for (;;) {
        const delay = hopDelaySeconds(new Date(String(message.notBefore)), now);
        if (delay === 0) break;
        expect(delay).toBeLessThanOrEqual(MAX_DELAY_SECONDS);
        now = new Date(now.getTime() + delay * 1000);
        hops += 1;
      }
      requests += 1;
    }
    const hours = (now.getTime() - start.getTime()) / 3_600_000;
    expect(hours).toBeGreaterThanOrEqual(24);
    expect(hours).toBeLessThan(24.3);
    expect(requests).toBeGreaterThan(90);
    expect(hops).toBe(requests - 1);
    expect(message.attempt).toBe(requests);
  });

  it('gives up at once when the first failure is older than the window', () => {
    const now = new Date('2026-11-24T00:00:01Z');
    expect(afterBankFailure({ reference: 'WD-A', attempt: 7, firstFailedAt: '2026-11-23T00:00:00Z' }, now, policy)).toEqual({ kind: 'give-up' });
    expect(afterBankFailure({ reference: 'WD-A', attempt: 7, firstFailedAt: '2026-11-23T00:00:02Z' }, now, policy).kind).toBe('retry');
  });
});

import { describe, expect, it } from 'vitest';
import { RECURSION_LIMIT } from '../../infra/local/recursion';
import { EARLY_TOLERANCE_MS, MAX_ATTEMPTS, nextRetryDelaySeconds, RETRY_WAITS_MINUTES } from '../../shared/domain/webhook-schedule';
import { queues } from '../../shared/platform/queues';
import { keys } from '../../shared/adapters/dynamo/keys';
import {
  dlqBodies,
  droppedInvocations,
  eventually,
  failingWebhookEvent,
  itemOf,
  outageBank,
  pendingWithdrawal,
  useRecursionHarness,
  WEBHOOK_SCALE,
} from '../support/recursion-harness';

/**
 * The retry chains of the webhook sender and the payout worker run whole under Lambda's recursive
 * loop rule with the setting the stack deploys (shared/platform/queues.ts: RecursiveLoop Allow): each wait
 * longer than a hop is several hops, each hop an invocation of the same chain, far past 16.
 */
describe.concurrent("retry chains under Lambda's recursive loop rule, as deployed (RecursiveLoop Allow)", () => {
  const harness = useRecursionHarness(queues.webhooks.recursiveLoop);

  it('the queues the workers re-enter are deployed with RecursiveLoop Allow', () => {
    expect(queues.webhooks.recursiveLoop).toBe('Allow');
    expect(queues.payouts.recursiveLoop).toBe('Allow');
  });

  it("a webhook failing every attempt makes all 8, at the spec's schedule (scaled), then is marked failed", async () => {
    const eventId = await failingWebhookEvent(harness());
    await eventually(async () => (await itemOf(keys.delivery(eventId)))?.status === 'failed', 170_000);
    const record = await itemOf(keys.delivery(eventId));
    expect(record).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, nextAttemptAt: null });
    const times = harness().attemptTimes(eventId);
    expect(times).toHaveLength(MAX_ATTEMPTS);
    // Each wait is at least the spec's (1, 5, 15, 60, 180, 360, 720 minutes × the scale, in whole seconds), less the second a message may come early.
    expect(RETRY_WAITS_MINUTES).toHaveLength(MAX_ATTEMPTS - 1);
    RETRY_WAITS_MINUTES.forEach((minutes, i) => {
      const gap = (times[i + 1] ?? 0) - (times[i] ?? 0);
      const wait = nextRetryDelaySeconds(i + 1, WEBHOOK_SCALE) ?? 0;
      expect(wait).toBe(Math.round(minutes * 60 * WEBHOOK_SCALE));
      expect(gap).toBeGreaterThanOrEqual(wait * 1000 - EARLY_TOLERANCE_MS);
    });
    // The chain took more invocations than Lambda's limit for a Terminate function, and none was stopped.
    expect(harness().invocations.webhooks).toBeGreaterThan(RECURSION_LIMIT);
    expect(droppedInvocations(queues.webhooks.id)).toBe(0);
    expect(await dlqBodies(harness().webhooks.dlqUrl)).toEqual([]);
  }, 200_000);

  it('a payout rides a bank outage of 20 failed requests (more than 16 invocations) and is requested once the bank answers', async () => {
    const outage = outageBank(20);
    const reference = await pendingWithdrawal(harness(), outage.name);
    await eventually(async () => typeof (await itemOf(keys.withdraw(reference)))?.bankRequestedAt === 'string', 170_000);
    expect(outage.requests.get(reference)).toBe(21);
    expect(harness().invocations.payouts).toBeGreaterThan(RECURSION_LIMIT);
    expect(droppedInvocations(queues.payouts.id)).toBe(0);
    expect(await dlqBodies(harness().payouts.dlqUrl)).toEqual([]);
    // The money stayed reserved throughout: the withdraw is still PENDING, now waiting for the bank's outcome.
    expect((await itemOf(keys.withdraw(reference)))?.status).toBe('PENDING');
  }, 200_000);
});

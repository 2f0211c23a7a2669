import { describe, expect, it } from 'vitest';
import { RECURSION_LIMIT } from '../../infra/local/recursion';
import { MAX_ATTEMPTS } from '../../shared/domain/webhook-schedule';
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
} from '../support/recursion-harness';

/**
 * What AWS's default does to the same chains (the setting removed: RecursiveLoop Terminate): Lambda
 * stops each chain's 17th invocation and its message goes to the DLQ. This is the failure the
 * deployed setting prevents (recursion-allowed.test.ts).
 */
describe.concurrent("retry chains under Lambda's recursive loop rule with the setting removed (Terminate)", () => {
  const harness = useRecursionHarness('Terminate');

  it("stops a failing webhook's chain at the sender's 17th invocation: the last attempts never happen", async () => {
    const eventId = await failingWebhookEvent(harness());
    await eventually(() => droppedInvocations(queues.webhooks.id) >= 1, 170_000);
    expect(harness().invocations.webhooks).toBe(RECURSION_LIMIT);
    const record = await itemOf(keys.delivery(eventId));
    expect(record?.status).toBe('pending');
    expect(Number(record?.attempts)).toBeLessThan(MAX_ATTEMPTS);
    expect(harness().attemptTimes(eventId)).toHaveLength(Number(record?.attempts));
    expect(await dlqBodies(harness().webhooks.dlqUrl)).toEqual([expect.objectContaining({ eventId })]);
  }, 200_000);

  it('stops a payout riding a bank outage: the withdrawal stays PENDING, never requested, its message in the DLQ', async () => {
    const outage = outageBank(20);
    const reference = await pendingWithdrawal(harness(), outage.name);
    await eventually(() => droppedInvocations(queues.payouts.id) >= 1, 170_000);
    expect(harness().invocations.payouts).toBe(RECURSION_LIMIT);
    expect(outage.requests.get(reference) ?? 0).toBeLessThanOrEqual(RECURSION_LIMIT);
    const withdraw = await itemOf(keys.withdraw(reference));
    expect(withdraw?.status).toBe('PENDING');
    expect(withdraw?.bankRequestedAt).toBeUndefined();
    expect(await dlqBodies(harness().payouts.dlqUrl)).toEqual([expect.objectContaining({ reference })]);
  }, 200_000);
});

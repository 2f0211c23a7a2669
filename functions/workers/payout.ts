import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { BankUnavailableError } from '../../shared/ports/bank';
import { requestPayout } from '../../shared/app/withdrawals/request-payout';
import { endInvocation, type InvocationContext, logger, startInvocation, withLogKeys } from '../../shared/platform/logger';
import { flushMetrics } from '../../shared/platform/metrics';
import { bank } from '../../shared/wiring/adapter-registry';
import { handleSqsBatch } from '../../shared/platform/queue-batch';
import { isDue, maxHopSecondsFor } from '../../shared/domain/delay-hops';
import { messageQueue } from '../../shared/wiring/queue';
import { getRuntime, type Runtime } from '../../shared/wiring/runtime';
import { withdrawalStore } from '../../shared/wiring/withdrawals';

/** A message of the payout queue: the withdraw, the attempt it is meant to make (1 when absent), when it is due, and when the bank first failed it. */
export type PayoutMessage = { reference: string; attempt?: number; notBefore?: string; firstFailedAt?: string };

/** Waits before asking the bank again: 5 s, 10 s, 20 s … up to 15 minutes, times PAYOUT_RETRY_SCALE. */
export function payoutRetryDelaySeconds(attemptsMade: number, scale: number): number {
  return Math.max(0, Math.round(Math.min(900, 5 * 2 ** Math.max(0, Math.min(attemptsMade, 20) - 1)) * scale));
}

/** What to do after a failed bank request: retry at `notBefore`, or give up (the retry window is spent). */
export function afterBankFailure(
  message: PayoutMessage,
  now: Date,
  policy: { retryScale: number; retryWindowSeconds: number },
): { kind: 'retry'; next: PayoutMessage } | { kind: 'give-up' } {
  const firstFailedAt = message.firstFailedAt ?? now.toISOString();
  if (now.getTime() - Date.parse(firstFailedAt) >= policy.retryWindowSeconds * 1000) return { kind: 'give-up' };
  const attempt = message.attempt ?? 1;
  const wait = payoutRetryDelaySeconds(attempt, policy.retryScale);
  return {
    kind: 'retry',
    next: { reference: message.reference, attempt: attempt + 1, firstFailedAt, notBefore: new Date(now.getTime() + wait * 1000).toISOString() },
  };
}

/** The payout use case over the runtime's ports: the bank the withdraw names, through the registry. */
function payOut(runtime: Runtime, reference: string): Promise<void> {
  return requestPayout(
    {
      withdrawals: withdrawalStore(runtime),
      bankFor: (name) => bank(runtime.config, name ?? runtime.config.payouts.bank),
      bankTimeoutMs: runtime.config.payouts.bankTimeoutMs,
      now: () => new Date(),
    },
    reference,
  );
}

/** Handles one message; throws only when the message must come back as it is (SQS retries it, then its DLQ). */
async function handle(runtime: Runtime, record: SQSRecord): Promise<void> {
  const message = JSON.parse(record.body) as PayoutMessage;
  const { queueUrl, dlqUrl } = runtime.config.payouts;
  const now = runtime.clock.now();
  const maxHop = maxHopSecondsFor(runtime.config.payouts.retryScale);
  if (!isDue(message, now)) {
    // The next hop of a wait longer than one SQS delay.
    if (!queueUrl) throw new Error('PAYOUT_QUEUE_URL is not configured');
    await messageQueue().sendScheduled(queueUrl, message, now, maxHop);
    return;
  }
  try {
    await payOut(runtime, message.reference);
    return;
  } catch (err) {
    const decision = afterBankFailure(message, now, runtime.config.payouts);
    logger.warn('payout not requested', {
      reference: message.reference,
      attempt: message.attempt ?? 1,
      error: err instanceof Error ? err.message : 'unknown',
      bankDown: err instanceof BankUnavailableError,
      next: decision.kind === 'retry' ? decision.next.notBefore : 'dead-letter queue',
    });
    if (decision.kind === 'retry' && queueUrl) {
      // The money stays reserved (the withdraw stays PENDING) while the bank is retried.
      await messageQueue().sendScheduled(queueUrl, decision.next, now, maxHop);
      return;
    }
    if (decision.kind === 'give-up' && dlqUrl) {
      await messageQueue().send(dlqUrl, message);
      logger.error('payout moved to the dead-letter queue: the bank kept failing for the whole retry window', { reference: message.reference });
      return;
    }
    throw err;
  }
}

/**
 * The payout queue's consumer: asks the bank to pay each withdrawal, with the withdraw reference as
 * the bank's idempotency key. A bank failure leaves the withdraw PENDING (its money stays reserved) and
 * sends the next attempt as a delayed message (5 s doubling up to 15 minutes, × PAYOUT_RETRY_SCALE;
 * hops of at most 15 minutes), for up to PAYOUT_RETRY_WINDOW_SECONDS (24 h) from the first failure;
 * then the message goes to the DLQ (alarmed). Nothing is held in flight between attempts. Each bank
 * request has a hard limit (BANK_TIMEOUT_MS); a batch's messages are handled RECORD_CONCURRENCY at a time.
 */
export async function handler(event: SQSEvent, context?: InvocationContext): Promise<SQSBatchResponse> {
  startInvocation(context, { worker: 'payouts' });
  try {
    const runtime = getRuntime();
    return await handleSqsBatch(
      event,
      (record) => withLogKeys({ messageId: record.messageId, reference: referenceOf(record) }, () => handle(runtime, record)),
      (messageId, error) => logger.warn('payout message returned to the queue', { messageId, error: error instanceof Error ? error.message : 'unknown' }),
    );
  } finally {
    flushMetrics();
    endInvocation();
  }
}

/** The withdraw reference of a message, for its log lines (undefined when the body is not a payout message). */
function referenceOf(record: SQSRecord): string | undefined {
  try {
    const { reference } = JSON.parse(record.body) as Partial<PayoutMessage>;
    return typeof reference === 'string' ? reference.slice(0, 64) : undefined;
  } catch {
    return undefined;
  }
}

import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { forwardItems } from '../../shared/app/events/forward';
import type { Forwardable } from '../../shared/ports/forwarding';
import { forwardableRecord, forwardPorts } from '../../shared/wiring/forward';
import { endInvocation, type InvocationContext, logger, startInvocation } from '../../shared/platform/logger';
import { flushMetrics } from '../../shared/platform/metrics';
import { getRuntime } from '../../shared/wiring/runtime';

/**
 * The table stream's forwarder: every new withdraw and every outbox event (INSERTs only) becomes a
 * message on its queue, and leaves the sweep's index. In AWS an event-source filter keeps only those
 * INSERTs; the checks here keep the function correct without it. A record whose message could not be
 * queued is reported as the batch's first failure (ReportBatchItemFailures): Lambda retries from it,
 * with bisection, then sends the failure record to the alarmed failure queue and moves on; the sweep
 * (functions/workers/sweep.ts) then forwards what was never forwarded, from the table.
 */
export async function handler(event: DynamoDBStreamEvent, context?: InvocationContext): Promise<DynamoDBBatchResponse> {
  startInvocation(context, { worker: 'stream-forwarder' });
  try {
    return await forward(event);
  } finally {
    flushMetrics();
    endInvocation();
  }
}

/** What a log line names of forwarded items: the event ids and withdraw references (at most 25 of each). */
function idsOf(items: Forwardable[]): { eventIds?: string[]; references?: string[] } {
  const values = (key: string) =>
    items
      .map((item) => (item.message as Record<string, unknown>)[key])
      .filter((v): v is string => typeof v === 'string')
      .slice(0, 25);
  const eventIds = values('eventId');
  const references = values('reference');
  return { ...(eventIds.length ? { eventIds } : {}), ...(references.length ? { references } : {}) };
}

async function forward(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const pending = event.Records.map((record) => ({ record, item: forwardableRecord(record) })).filter(
    (entry): entry is { record: DynamoDBRecord; item: Forwardable } => entry.item !== undefined,
  );
  if (pending.length === 0) return { batchItemFailures: [] };
  const { sent, failed } = await forwardItems(
    forwardPorts(getRuntime()),
    pending.map((entry) => entry.item),
  );
  logger.info('stream items forwarded', { count: sent.length, failed: failed.length, ...idsOf(sent) });
  if (failed.length > 0) logger.warn('stream items not forwarded', idsOf(failed));
  const firstFailed = pending.find((entry) => failed.includes(entry.item));
  const sequence = firstFailed?.record.dynamodb?.SequenceNumber;
  return { batchItemFailures: sequence ? [{ itemIdentifier: sequence }] : [] };
}

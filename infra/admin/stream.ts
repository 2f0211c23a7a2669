import { DeleteMessageCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { forwardUnforwarded } from '../../shared/app/events/forward';
import { forwardPortsOver } from '../../shared/wiring/forward';
import { sqsQueue } from '../../shared/adapters/sqs/queue';
import type { Db } from '../../shared/adapters/dynamo/dynamo';

/** What `stream redrive` needs: the table, SQS, the failure queue and the two queues items go to. */
export type RedrivePorts = { db: Db; table: string; sqs: SQSClient; streamFailures: string; queues: { payouts: string; webhooks: string; mail: string } };

/** A failure record names a time window of stream records (metadata only): widened by this margin each side. */
const WINDOW_MARGIN_MS = 5 * 60 * 1000;

type BatchInfo = { approximateArrivalOfFirstRecord?: string; approximateArrivalOfLastRecord?: string };

/**
 * `npm run admin -- stream redrive`: reads every failure record the stream's event source mapping left
 * in the failure queue, and forwards from the table what those records' time windows hold and was
 * never forwarded (items still in the sweep's index; stream records themselves expire after 24 h).
 * A record is deleted once its items are on their queues; one that could not be redriven stays.
 * `maxRecords` bounds how many failure records one run takes (`dlq redrive --queue stream-failures
 * --max N`, as the other queues' redrive is bounded); the rest wait for the next run.
 */
export async function redriveStreamFailures(
  ports: RedrivePorts,
  maxRecords = Number.POSITIVE_INFINITY,
): Promise<{ failure_records: number; forwarded: number; kept: number }> {
  let records = 0;
  let forwarded = 0;
  let kept = 0;
  const seen = new Set<string>();
  while (records < maxRecords) {
    const received = await ports.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: ports.streamFailures,
        MaxNumberOfMessages: Math.min(10, maxRecords - records),
        WaitTimeSeconds: 0,
        VisibilityTimeout: 60,
      }),
    );
    const messages = (received.Messages ?? []).filter((m) => m.MessageId && !seen.has(m.MessageId));
    if (messages.length === 0) break;
    for (const message of messages) {
      seen.add(String(message.MessageId));
      records += 1;
      const info = (JSON.parse(message.Body ?? '{}') as { DDBStreamBatchInfo?: BatchInfo }).DDBStreamBatchInfo ?? {};
      const first = Date.parse(info.approximateArrivalOfFirstRecord ?? '');
      const last = Date.parse(info.approximateArrivalOfLastRecord ?? '');
      if (!Number.isFinite(first) || !Number.isFinite(last)) {
        kept += 1;
        continue;
      }
      const result = await forwardUnforwarded(
        forwardPortsOver(ports.db, ports.table, sqsQueue(ports.sqs), ports.queues),
        new Date(first - WINDOW_MARGIN_MS).toISOString(),
        new Date(last + WINDOW_MARGIN_MS).toISOString(),
      );
      forwarded += result.sent.length;
      if (result.failed.length > 0) {
        kept += 1;
        continue;
      }
      await ports.sqs.send(new DeleteMessageCommand({ QueueUrl: ports.streamFailures, ReceiptHandle: message.ReceiptHandle }));
    }
  }
  return { failure_records: records, forwarded, kept };
}

import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';

/** The retry settings of a stream's event source mapping (shared/platform/queues.ts StreamMappingDef). */
export type MappingSettings = { id: string; retryAttempts: number; maxRecordAgeSeconds: number };

/** What Lambda sends to a stream mapping's on-failure destination: metadata only, never the records. */
export type StreamFailureRecord = {
  requestContext: { requestId: string; functionArn: string; condition: 'RetryAttemptsExhausted' | 'RecordAgeExceeded'; approximateInvokeCount: number };
  responseContext: { statusCode: number; executedVersion: string; functionError: string };
  version: '1.0';
  timestamp: string;
  DDBStreamBatchInfo: {
    shardId: string;
    startSequenceNumber: string;
    endSequenceNumber: string;
    approximateArrivalOfFirstRecord: string;
    approximateArrivalOfLastRecord: string;
    batchSize: number;
    streamArn: string;
  };
};

const arrival = (record: DynamoDBRecord | undefined) => new Date(Number(record?.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000).toISOString();

/** The failure record Lambda writes for records it gave up on. */
export function failureRecord(
  records: readonly DynamoDBRecord[],
  context: {
    functionId: string;
    shardId: string;
    streamArn: string;
    condition: StreamFailureRecord['requestContext']['condition'];
    invokeCount: number;
    now: Date;
  },
): StreamFailureRecord {
  const first = records[0];
  const last = records.at(-1);
  return {
    requestContext: {
      requestId: randomUUID(),
      functionArn: `arn:aws:lambda:us-east-1:000000000000:function:${context.functionId}`,
      condition: context.condition,
      approximateInvokeCount: context.invokeCount,
    },
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    version: '1.0',
    timestamp: context.now.toISOString(),
    DDBStreamBatchInfo: {
      shardId: context.shardId,
      startSequenceNumber: String(first?.dynamodb?.SequenceNumber ?? ''),
      endSequenceNumber: String(last?.dynamodb?.SequenceNumber ?? ''),
      approximateArrivalOfFirstRecord: arrival(first),
      approximateArrivalOfLastRecord: arrival(last),
      batchSize: records.length,
      streamArn: context.streamArn,
    },
  };
}

export type DeliveryPorts = {
  invoke: (records: DynamoDBRecord[]) => Promise<unknown>;
  giveUp: (records: DynamoDBRecord[], condition: StreamFailureRecord['requestContext']['condition'], invokeCount: number) => Promise<void>;
  now?: () => Date;
  pauseMs?: number;
};

/**
 * Delivers a batch as Lambda's DynamoDB event source mapping does with ReportBatchItemFailures,
 * BisectBatchOnFunctionError, MaximumRetryAttempts and MaximumRecordAgeInSeconds: a reported failure
 * retries from the failed record; an error splits the batch in two and retries each half; once the
 * retries are spent (or the records are too old) the records are given up on (the failure record goes
 * to the on-failure destination) and the stream moves on. Returns how many records were given up on.
 */
export async function deliverLikeLambda(records: DynamoDBRecord[], settings: MappingSettings, ports: DeliveryPorts): Promise<number> {
  const now = ports.now ?? (() => new Date());
  let givenUp = 0;
  const tooOld = (segment: DynamoDBRecord[]) =>
    segment.every(
      (record) => now().getTime() / 1000 - Number(record.dynamodb?.ApproximateCreationDateTime ?? now().getTime() / 1000) > settings.maxRecordAgeSeconds,
    );

  async function run(segment: DynamoDBRecord[], retriesLeft: number, invokeCount: number): Promise<void> {
    if (segment.length === 0) return;
    if (tooOld(segment)) {
      givenUp += segment.length;
      await ports.giveUp(segment, 'RecordAgeExceeded', invokeCount);
      return;
    }
    let remaining: DynamoDBRecord[] = [];
    let threw = false;
    try {
      const response = (await ports.invoke(segment)) as DynamoDBBatchResponse | undefined;
      const failed = response?.batchItemFailures?.[0]?.itemIdentifier;
      if (failed) {
        const at = segment.findIndex((record) => record.dynamodb?.SequenceNumber === failed);
        // An identifier that names no record of the batch fails the whole batch, as in Lambda.
        remaining = at >= 0 ? segment.slice(at) : segment;
      }
    } catch {
      threw = true;
      remaining = segment;
    }
    if (remaining.length === 0) return;
    if (retriesLeft <= 0) {
      givenUp += remaining.length;
      await ports.giveUp(remaining, 'RetryAttemptsExhausted', invokeCount + 1);
      return;
    }
    if (ports.pauseMs) await sleep(ports.pauseMs);
    if (threw && remaining.length > 1) {
      const half = Math.ceil(remaining.length / 2);
      await run(remaining.slice(0, half), retriesLeft - 1, invokeCount + 1);
      await run(remaining.slice(half), retriesLeft - 1, invokeCount + 1);
      return;
    }
    await run(remaining, retriesLeft - 1, invokeCount + 1);
  }

  await run(records, settings.retryAttempts, 0);
  return givenUp;
}

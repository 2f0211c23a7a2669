import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { deliverLikeLambda, failureRecord } from '../../../infra/local/stream-mapping';

const now = new Date('2026-11-23T12:00:00Z');
const record = (n: number, ageSeconds = 1): DynamoDBRecord => ({
  eventName: 'INSERT',
  dynamodb: { SequenceNumber: String(1000 + n), ApproximateCreationDateTime: now.getTime() / 1000 - ageSeconds },
});
const seqs = (records: DynamoDBRecord[]) => records.map((r) => Number(r.dynamodb?.SequenceNumber) - 1000);
const settings = { id: 'Forwarder', retryAttempts: 10, maxRecordAgeSeconds: 3600 };

describe('the local stream mapping behaves like Lambda’s', () => {
  it('delivers a good batch once', async () => {
    const calls: number[][] = [];
    const given = await deliverLikeLambda([record(1), record(2)], settings, {
      invoke: async (s) => void calls.push(seqs(s)),
      giveUp: async () => undefined,
      now: () => now,
    });
    expect(given).toBe(0);
    expect(calls).toEqual([[1, 2]]);
  });

  it('an error bisects the batch until the bad record is alone, delivers the rest, gives up on the bad one after the retries', async () => {
    const delivered = new Set<number>();
    const givenUp: number[][] = [];
    const bad = 5;
    const count = await deliverLikeLambda(
      Array.from({ length: 8 }, (_, i) => record(i)),
      { ...settings, retryAttempts: 5 },
      {
        invoke: async (segment) => {
          if (seqs(segment).includes(bad)) throw new Error('boom');
          for (const n of seqs(segment)) delivered.add(n);
        },
        giveUp: async (segment) => void givenUp.push(seqs(segment)),
        now: () => now,
      },
    );
    expect(count).toBe(1);
    expect(givenUp).toEqual([[bad]]);
    expect([...delivered].sort()).toEqual([0, 1, 2, 3, 4, 6, 7]);
  });

  it('a reported failure retries from that record on; a batch that keeps failing is given up on, and the stream moves on', async () => {
    const calls: number[][] = [];
    const givenUp: number[][] = [];
    await deliverLikeLambda(
      [record(1), record(2), record(3)],
      { ...settings, retryAttempts: 2 },
      {
        invoke: async (segment) => {
          calls.push(seqs(segment));
          return { batchItemFailures: [{ itemIdentifier: String(1002) }] };
        },
        giveUp: async (segment) => void givenUp.push(seqs(segment)),
        now: () => now,
      },
    );
    expect(calls).toEqual([
      [1, 2, 3],
      [2, 3],
      [2, 3],
    ]);
    expect(givenUp).toEqual([[2, 3]]);
  });

  it('records older than the maximum age are given up on without being invoked', async () => {
    let invoked = 0;
    const givenUp: string[] = [];
    await deliverLikeLambda([record(1, 7200)], settings, {
      invoke: async () => void (invoked += 1),
      giveUp: async (_segment, condition) => void givenUp.push(condition),
      now: () => now,
    });
    expect(invoked).toBe(0);
    expect(givenUp).toEqual(['RecordAgeExceeded']);
  });

  it('writes the failure record Lambda writes: metadata only (shard, sequence numbers, arrival times), never the records', () => {
    const out = failureRecord([record(1, 10), record(2, 5)], {
      functionId: 'F',
      shardId: 'shard-1',
      streamArn: 'arn:s',
      condition: 'RetryAttemptsExhausted',
      invokeCount: 11,
      now,
    });
    expect(out.DDBStreamBatchInfo).toEqual({
      shardId: 'shard-1',
      startSequenceNumber: '1001',
      endSequenceNumber: '1002',
      approximateArrivalOfFirstRecord: new Date(now.getTime() - 10_000).toISOString(),
      approximateArrivalOfLastRecord: new Date(now.getTime() - 5_000).toISOString(),
      batchSize: 2,
      streamArn: 'arn:s',
    });
    expect(out.requestContext).toMatchObject({ condition: 'RetryAttemptsExhausted', approximateInvokeCount: 11 });
    expect(JSON.stringify(out)).not.toContain('INSERT');
  });
});

import { performance } from 'node:perf_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { RequestDeadlineError } from '../../../../shared/domain/errors';
import { toErrorAnswer } from '../../../../shared/http/errors';
import { CLEANUP_WINDOW_MS, cleanupDeadline, stopAtFor, DEADLINE_MARGIN_MS, withDeadline } from '../../../../shared/adapters/dynamo/deadline';
import { createDb } from '../../../../shared/adapters/dynamo/dynamo';

/** A client whose every call fails after `ms` (a slow network), without any server. */
function slowDb(ms: number) {
  return createDb(
    new DynamoDBClient({
      region: 'us-east-1',
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
      maxAttempts: 1,
      requestHandler: { handle: () => new Promise((_resolve, reject) => setTimeout(() => reject(new Error('slow network')), ms)) },
    }),
  );
}

const read = new GetCommand({ TableName: 't', Key: { PK: 'a', SK: 'b' } });

describe('request deadline on DynamoDB calls', () => {
  it('a call still running at the deadline gives up with a 503 that says to retry with the same key', async () => {
    const db = slowDb(1_500);
    const started = performance.now();
    const error = await withDeadline(performance.now() + 100, () => db.send(read)).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(RequestDeadlineError);
    expect(performance.now() - started).toBeLessThan(1_400);
    const answer = toErrorAnswer(error);
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 'temporary_conflict' });
    expect(answer.headers['Retry-After']).toBeDefined();
  });

  it('a call made after the deadline fails at once', async () => {
    const db = slowDb(1_000);
    const started = performance.now();
    await expect(withDeadline(performance.now() - 1, () => db.send(read))).rejects.toBeInstanceOf(RequestDeadlineError);
    expect(performance.now() - started).toBeLessThan(900);
  });

  it('calls outside a request are not cut; clean-up calls run past the request deadline, until its own CLEANUP_WINDOW_MS later', async () => {
    const db = slowDb(200);
    await expect(db.send(read)).rejects.toThrow('slow network');
    await expect(withDeadline(performance.now() + 50, () => cleanupDeadline(() => db.send(read)))).rejects.toThrow('slow network');
    // Issue 44: a stalled table cannot hold a clean-up (and the answer) past its window.
    const stalled = slowDb(60_000);
    const started = performance.now();
    const error = await withDeadline(performance.now() + 50, () => cleanupDeadline(() => stalled.send(read))).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(RequestDeadlineError);
    expect(performance.now() - started).toBeLessThan(50 + CLEANUP_WINDOW_MS + 1_000);
    // Clean-ups one after another share the one window: the second fails at once.
    const late = performance.now();
    await expect(withDeadline(late - CLEANUP_WINDOW_MS - 1, () => cleanupDeadline(() => stalled.send(read)))).rejects.toBeInstanceOf(RequestDeadlineError);
    expect(performance.now() - late).toBeLessThan(1_000);
  });

  it('keeps a margin from the function’s remaining time', () => {
    const now = performance.now();
    const stopAt = stopAtFor(10_000);
    expect(stopAt - now).toBeGreaterThan(10_000 - DEADLINE_MARGIN_MS - 50);
    expect(stopAt - now).toBeLessThanOrEqual(10_000 - DEADLINE_MARGIN_MS + 50);
  });
});

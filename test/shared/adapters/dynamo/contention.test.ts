import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { ContentionError } from '../../../../shared/domain/errors';
import { toErrorAnswer } from '../../../../shared/http/errors';
import { isTransientWriteError, retryBudget, retryTransient } from '../../../../shared/adapters/dynamo/contention';

const named = (name: string, extra: object = {}) => Object.assign(new Error(name), { name, ...extra });
const canceled = (...codes: string[]) => named('TransactionCanceledException', { CancellationReasons: codes.map((Code) => ({ Code })) });

describe('isTransientWriteError', () => {
  it('counts conflicts and throttles as transient', () => {
    expect(isTransientWriteError(named('TransactionConflictException'))).toBe(true);
    expect(isTransientWriteError(named('ProvisionedThroughputExceededException'))).toBe(true);
    expect(isTransientWriteError(named('ThrottlingException'))).toBe(true);
    expect(isTransientWriteError(canceled('None', 'TransactionConflict'))).toBe(true);
    expect(isTransientWriteError(canceled('ThrottlingError', 'None'))).toBe(true);
  });

  it('never counts a failed condition, a validation error or an unknown error as transient', () => {
    expect(isTransientWriteError(canceled('ConditionalCheckFailed', 'TransactionConflict'))).toBe(false);
    expect(isTransientWriteError(canceled('None', 'ValidationError'))).toBe(false);
    expect(isTransientWriteError(canceled('None', 'None'))).toBe(false);
    expect(isTransientWriteError(named('ConditionalCheckFailedException'))).toBe(false);
    expect(isTransientWriteError(named('ValidationException'))).toBe(false);
    expect(isTransientWriteError(new Error('socket hang up'))).toBe(false);
    expect(isTransientWriteError(undefined)).toBe(false);
  });
});

describe('retryTransient', () => {
  it('retries transient failures and returns the first success', async () => {
    let calls = 0;
    const value = await retryTransient(async () => {
      calls += 1;
      if (calls < 4) throw canceled('TransactionConflict');
      return 'written';
    }, retryBudget(5_000));
    expect(value).toBe('written');
    expect(calls).toBe(4);
  });

  it('throws any other error at once, without retrying', async () => {
    let calls = 0;
    const failure = named('ConditionalCheckFailedException');
    await expect(
      retryTransient(async () => {
        calls += 1;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(calls).toBe(1);
  });

  it('gives up when the budget is spent: 503 temporary_conflict with Retry-After, bounded in time', async () => {
    let calls = 0;
    const started = performance.now();
    const error = await retryTransient(async () => {
      calls += 1;
      throw named('TransactionConflictException');
    }, retryBudget(300)).catch((err: unknown) => err);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(ContentionError);
    expect(calls).toBeGreaterThan(1);
    // The budget bounds the waits; a loaded machine may add scheduling delay, never another backoff.
    expect(elapsed).toBeLessThan(300 + 2_000);
    const answer = toErrorAnswer(error);
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ code: 'temporary_conflict', error: expect.any(String) });
    expect(Number(answer.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
  });

  it('with the budget already spent, makes one attempt and no wait', async () => {
    let calls = 0;
    await expect(
      retryTransient(async () => {
        calls += 1;
        throw named('ThrottlingException');
      }, retryBudget(0)),
    ).rejects.toBeInstanceOf(ContentionError);
    expect(calls).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/errors';
import { IDEMPOTENCY_HEADER, idempotencyKeyFrom } from '../../../shared/domain/idempotency-key';
import type { IdempotencyMode } from '../../../shared/domain/route-policy';

function rejected(header: string | undefined, mode: IdempotencyMode): ValidationError {
  try {
    idempotencyKeyFrom(header, mode);
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw new Error(`expected a ValidationError, got ${String(err)}`);
  }
  throw new Error(`expected ${JSON.stringify(header)} to be rejected`);
}

function expect422(header: string | undefined, mode: IdempotencyMode) {
  const err = rejected(header, mode);
  expect(err.kind).toBe('validation');
  expect(Object.keys(err.fields)).toEqual(['Idempotency-Key']);
  expect(err.fields['Idempotency-Key']?.length).toBeGreaterThan(0);
}

describe('idempotencyKeyFrom', () => {
  it('names the header Idempotency-Key', () => {
    expect(IDEMPOTENCY_HEADER).toBe('Idempotency-Key');
  });

  it.each(['optional', 'required'] as const)('accepts 8 and 100 characters from A-Za-z0-9_.:- (%s)', (mode) => {
    expect(idempotencyKeyFrom('a'.repeat(8), mode)).toBe('aaaaaaaa');
    const hundred = 'Ab0_.:-z'.repeat(12) + 'Zz09';
    expect(hundred).toHaveLength(100);
    expect(idempotencyKeyFrom(hundred, mode)).toBe(hundred);
    expect(idempotencyKeyFrom('order-2026-10-14:0001_v1.2', mode)).toBe('order-2026-10-14:0001_v1.2');
    expect(idempotencyKeyFrom('0c9b6a0e-6f1e-4a53-9a0c-5b1f0e7a9d11', mode)).toBe('0c9b6a0e-6f1e-4a53-9a0c-5b1f0e7a9d11');
  });

  it.each(['optional', 'required'] as const)('rejects 7 and 101 characters with 422 on Idempotency-Key (%s)', (mode) => {
    expect422('a'.repeat(7), mode);
    expect422('a'.repeat(101), mode);
  });

  it.each([
    ['a space', 'abcd efgh'],
    ['a leading space', ' abcdefgh'],
    ['a trailing newline', 'abcdefgh\n'],
    ['unicode letters', 'pedido-ção-1'],
    ['an emoji', 'abcdefgh😀'],
    ['a slash', 'abcd/efgh'],
    ['a plus', 'abcd+efgh'],
    ['a comma', 'abcd,efgh'],
  ])('rejects a key with %s with 422', (_name, key) => {
    expect422(key, 'optional');
    expect422(key, 'required');
  });

  it('ignores the header entirely in mode none, even a malformed one', () => {
    expect(idempotencyKeyFrom('valid-key-123', 'none')).toBeUndefined();
    expect(idempotencyKeyFrom('bad', 'none')).toBeUndefined();
    expect(idempotencyKeyFrom(undefined, 'none')).toBeUndefined();
  });

  it('returns undefined when optional and absent', () => {
    expect(idempotencyKeyFrom(undefined, 'optional')).toBeUndefined();
    expect(idempotencyKeyFrom('', 'optional')).toBeUndefined();
  });

  it('gives 422 on Idempotency-Key when required and absent', () => {
    expect422(undefined, 'required');
    expect422('', 'required');
  });
});

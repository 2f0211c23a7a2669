import { ValidationError } from './errors';
import type { IdempotencyMode } from './route-policy';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const KEY_SHAPE = /^[A-Za-z0-9_.:-]{8,100}$/;

/** Reads the Idempotency-Key header for a route: undefined when absent and optional; 422 when malformed or required and absent. */
export function idempotencyKeyFrom(header: string | undefined, mode: IdempotencyMode): string | undefined {
  if (mode === 'none') return undefined;
  if (header === undefined || header === '') {
    if (mode === 'required') throw new ValidationError({ [IDEMPOTENCY_HEADER]: ['The Idempotency-Key header is required on this route'] });
    return undefined;
  }
  if (!KEY_SHAPE.test(header)) {
    throw new ValidationError({ [IDEMPOTENCY_HEADER]: ['Must be 8 to 100 characters from A-Z a-z 0-9 _ . : -'] });
  }
  return header;
}

import type { KeyType } from '../domain/withdrawal';
import { withTimeout } from '../timeout';

/** The bank port: pays a Pix withdrawal. Its outcome arrives later as a notification (paid or refused). */
export type PayoutRequest = { reference: string; amountCents: number; pixkey: string; keytype: KeyType; description?: string };

/** The bank could not take the request now (down, timeout): nothing was paid; ask again later. */
export class BankUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BankUnavailableError';
  }
}

export interface BankPort {
  readonly name: string;
  /** Idempotent by `reference` (the bank's own idempotency key): asking twice never pays twice. */
  requestPayout(request: PayoutRequest): Promise<void>;
}

/**
 * Runs one bank request under a hard time limit: past it the request counts as failed
 * (BankUnavailableError), as an outage does, and is retried on the payout schedule. The request is
 * idempotent by reference, so a late success of the abandoned call and the retry pay once.
 */
export function withBankTimeout<T>(call: Promise<T>, timeoutMs: number): Promise<T> {
  return withTimeout(call, timeoutMs, () => new BankUnavailableError(`The bank did not answer within ${timeoutMs} ms`));
}

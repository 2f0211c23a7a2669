import { BankUnavailableError } from '../ports/bank';
import { ProviderTimeoutError } from '../ports/payment-provider';
import { withTimeout } from '../platform/timeout';

/** Runs one provider call under a hard time limit: past it the call counts as failed (ProviderTimeoutError, a ProviderError). */
export function withProviderTimeout<T>(call: Promise<T>, timeoutMs: number): Promise<T> {
  return withTimeout(call, timeoutMs, () => new ProviderTimeoutError(timeoutMs));
}

/**
 * Runs one bank request under a hard time limit: past it the request counts as failed
 * (BankUnavailableError), as an outage does, and is retried on the payout schedule. The request is
 * idempotent by reference, so a late success of the abandoned call and the retry pay once.
 */
export function withBankTimeout<T>(call: Promise<T>, timeoutMs: number): Promise<T> {
  return withTimeout(call, timeoutMs, () => new BankUnavailableError(`The bank did not answer within ${timeoutMs} ms`));
}

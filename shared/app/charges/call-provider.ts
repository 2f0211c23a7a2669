import { BadRequestError, UnprocessableError, UpstreamError } from '../../domain/errors';
import { ProviderError, ProviderRejectedError } from '../../ports/payment-provider';
import { withProviderTimeout } from '../time-limits';

/** The error code of a charge the payment provider refused for its content (its message is the PSP's). */
export const PROVIDER_REJECTED = 'provider_rejected';

/**
 * One call to the payment provider within PROVIDER_TIMEOUT_MS: a provider failure or a timeout becomes
 * 502 `upstream_error` with `failure` as its message; a refusal of the request's content (a PSP's
 * 4xx) becomes 400 or 422 `provider_rejected` with the PSP's message. Either way nothing is recorded
 * and the key is freed. The one place provider errors become domain errors.
 */
export async function callProvider<T>(call: Promise<T>, timeoutMs: number, failure: string): Promise<T> {
  try {
    return await withProviderTimeout(call, timeoutMs);
  } catch (err) {
    if (err instanceof ProviderError) throw new UpstreamError('upstream_failed', failure);
    if (err instanceof ProviderRejectedError) {
      const message = `The payment provider refused the charge: ${err.message}`;
      throw err.status === 422 ? new UnprocessableError(message, PROVIDER_REJECTED) : new BadRequestError(message, PROVIDER_REJECTED);
    }
    throw err;
  }
}

import { BadRequestError, ValidationError } from '../../domain/errors';
import { unixSeconds } from '../../ports/clock';
import { requestFingerprint } from '../../domain/request-fingerprint';
import { IDEMPOTENCY_HEADER, idempotencyKeyFrom } from '../../domain/idempotency-key';
import { header, type PipelineMiddleware } from '../state';

/**
 * The Idempotency-Key before the body (spec 4.1). Before: the header is read and checked (missing
 * where required, malformed: 422 on `Idempotency-Key`) ahead of any body rule. On error: a request
 * refused for its body (not JSON, invalid fields, a bad path or query) before it could take the key's
 * lock is checked against the key's record, read only: a key already used by another route or body
 * answers 422 `idempotency_key_reused`, whatever the body's faults; a fresh key answers the body's
 * errors and records nothing. A request that reached the lock (persist) was checked there.
 */
export function idempotencyKeyFirst(): PipelineMiddleware {
  return {
    before: (request) => {
      const { state } = request.context;
      state.idempotencyKey = idempotencyKeyFrom(header(request, IDEMPOTENCY_HEADER), state.route.idempotency);
    },
    onError: async (request) => {
      const state = request.context.state;
      const key = state?.idempotencyKey;
      if (!state || key === undefined || !state.caller || state.keyChecked) return;
      if (!(request.error instanceof ValidationError || request.error instanceof BadRequestError)) return;
      const reused = await state.ports.idempotency.reuseError({
        accountId: state.caller.accountId,
        key,
        fingerprint: requestFingerprint(state.route.id, request.event.body, (await state.runtime.serviceKeys()).idempotency),
        nowSeconds: unixSeconds(state.runtime.clock.now()),
      });
      if (reused) request.error = reused;
    },
  };
}

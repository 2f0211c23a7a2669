import { admit, admitBesideTheWork, CountedRefusal, gateGoesBeside } from '../../app/auth/admit';
import { gatePorts } from '../../wiring/gate';
import { clientIp, edgeClientAddress } from '../edge-origin';
import { type PipelineMiddleware, type RouteState, header } from '../state';

export { clientIp } from '../edge-origin';

/** A refused call that was counted answers with its quota (RateLimit-* headers), as every counted call does. */
function refusalOf(state: RouteState, err: unknown): unknown {
  if (!(err instanceof CountedRefusal)) return err;
  state.quota = err.quota;
  return err.refusal;
}

/**
 * Waits for a gate that went out beside the work: the caller (with the account's settings on a write
 * route) and its quota, or its refusal thrown (what the work found is thrown away). Nothing to wait for
 * on other routes (their gate was passed before).
 */
export async function settleGate(state: RouteState): Promise<void> {
  const gate = state.gate;
  if (!gate) return;
  state.gate = undefined;
  try {
    const admission = await gate;
    state.caller = admission.caller ?? state.caller;
    state.quota = admission.quota;
  } catch (err) {
    throw refusalOf(state, err);
  }
}

/**
 * The edge check (deployed: the request came through CloudFront, else 403), then authentication and
 * rate limiting, before the body is even parsed. A Bearer route counted per account (gateGoesBeside)
 * only checks its token here and starts the count: a write route waits for it beside its idempotency
 * lock (persist), a read beside its read (the handler); any error before that waits for it too, and
 * the count's refusal wins.
 */
export function admitCaller(): PipelineMiddleware {
  return {
    before: async (request) => {
      const { state } = request.context;
      const address = edgeClientAddress(request.event.headers ?? {}, request.event.requestContext?.http?.sourceIp, await state.runtime.edgeSecret());
      const sourceIp = clientIp(address);
      state.clientIp = sourceIp;
      const input = { authorization: header(request, 'authorization'), sourceIp };
      try {
        if (gateGoesBeside(state.route)) {
          const { caller, admission } = await admitBesideTheWork(state.route, input, gatePorts(state.runtime, state.budget));
          state.caller = caller;
          state.gate = admission;
          // Awaited by settleGate; a refusal that arrives first is not an unhandled rejection meanwhile.
          admission.catch(() => undefined);
          return;
        }
        const admission = await admit(state.route, input, gatePorts(state.runtime, state.budget));
        state.caller = admission.caller;
        state.quota = admission.quota;
      } catch (err) {
        throw refusalOf(state, err);
      }
    },
    onError: async (request) => {
      const state = request.context.state;
      if (!state?.gate) return;
      // An error of the work (or of its input) answers only once the gate let the call through.
      try {
        await settleGate(state);
      } catch (refusal) {
        request.error = refusal instanceof Error ? refusal : new Error('gate refusal');
      }
    },
  };
}

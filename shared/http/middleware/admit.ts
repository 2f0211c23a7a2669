import { admit, admitBesideTheRead, CountedRefusal, readsBesideTheGate } from '../../app/auth/admit';
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
 * Waits for the gate of a read that went out beside it: its quota, or its refusal thrown (the read is
 * thrown away). Nothing to wait for on other routes (their gate was passed before).
 */
export async function settleGate(state: RouteState): Promise<void> {
  const gate = state.gate;
  if (!gate) return;
  state.gate = undefined;
  try {
    state.quota = (await gate).quota;
  } catch (err) {
    throw refusalOf(state, err);
  }
}

/**
 * The edge check (deployed: the request came through CloudFront, else 403), then authentication and
 * rate limiting, before the body is even parsed. A read beside the gate (readsBesideTheGate) only
 * checks its token here and starts the count; the handler's answer, or any error before it, waits
 * for the count, whose refusal wins.
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
        if (readsBesideTheGate(state.route)) {
          const { caller, admission } = await admitBesideTheRead(state.route, input, gatePorts(state.runtime, state.budget));
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
      // An error of the read (or of its input) answers only once the gate let the call through.
      try {
        await settleGate(state);
      } catch (refusal) {
        request.error = refusal instanceof Error ? refusal : new Error('gate refusal');
      }
    },
  };
}

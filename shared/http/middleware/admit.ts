import { admit, CountedRefusal } from '../../auth/gate';
import { edgeClientAddress } from '../edge-origin';
import { type PipelineMiddleware, header } from '../state';

/** An IPv4 or IPv6 literal as API Gateway gives it; anything else is counted under one shared name. */
const IP_LITERAL = /^[0-9A-Fa-f.:]{2,45}$/;

/** The client address the per-IP counters use (it reaches a table key: its shape and length are checked first). */
export function clientIp(sourceIp: string | undefined): string {
  return sourceIp !== undefined && IP_LITERAL.test(sourceIp) ? sourceIp : 'unknown';
}

/**
 * The edge check (deployed: the request came through CloudFront, else 403), then authentication and
 * rate limiting, before the body is even parsed.
 */
export function admitCaller(): PipelineMiddleware {
  return {
    before: async (request) => {
      const { state } = request.context;
      const address = edgeClientAddress(request.event.headers ?? {}, request.event.requestContext?.http?.sourceIp, await state.runtime.edgeSecret());
      const sourceIp = clientIp(address);
      state.clientIp = sourceIp;
      try {
        const admission = await admit(state.route, { authorization: header(request, 'authorization'), sourceIp }, state.runtime, state.budget);
        state.caller = admission.caller;
        state.quota = admission.quota;
      } catch (err) {
        if (!(err instanceof CountedRefusal)) throw err;
        // A refused call that was counted answers with its quota (RateLimit-* headers), as every counted call does.
        state.quota = err.quota;
        throw err.refusal;
      }
    },
  };
}

import { admit, CountedRefusal } from '../../app/auth/admit';
import { gatePorts } from '../../wiring/gate';
import { clientIp, edgeClientAddress } from '../edge-origin';
import { type PipelineMiddleware, header } from '../state';

export { clientIp } from '../edge-origin';

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
        const admission = await admit(state.route, { authorization: header(request, 'authorization'), sourceIp }, gatePorts(state.runtime, state.budget));
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

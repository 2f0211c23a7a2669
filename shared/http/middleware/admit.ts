import { admit } from '../../auth/gate';
import { type PipelineMiddleware, header } from '../state';

/** Authentication and rate limiting, before the body is even parsed. */
export function admitCaller(): PipelineMiddleware {
  return {
    before: async (request) => {
      const { state } = request.context;
      const sourceIp = request.event.requestContext?.http?.sourceIp ?? 'unknown';
      state.caller = await admit(state.route, { authorization: header(request, 'authorization'), sourceIp }, state.runtime, state.budget);
    },
  };
}

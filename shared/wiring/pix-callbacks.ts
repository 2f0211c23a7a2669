/**
 * The API Pix PSP's callback as the gateway receives it (POST /provider/{name}/notifications/{token}/pix):
 * the path token check, the body's schema and its txids. They live with the PSP adapter
 * (shared/adapters/providers/apipix/); the handler and the route table take them from here, so that
 * functions/ and shared/http/ name no adapter.
 */
export { pixCallbackTokenMatches } from '../adapters/providers/apipix/callback-url';
export { callbackTxids, pixCallbackSchema } from '../adapters/providers/apipix/cob';

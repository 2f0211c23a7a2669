import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { clientIp, EDGE_CLIENT_IP_HEADER, EDGE_ORIGIN_HEADER, isOriginSecret } from '../../shared/http/edge-origin';
import { logger } from '../../shared/platform/logger';
import { getRuntime } from '../../shared/wiring/runtime';

/** What the authorizer hands to API Gateway's access log (`$context.authorizer.viewerIp`). */
export type OriginContext = { viewerIp: string };

/**
 * The HTTP API's Lambda authorizer (issue 25): only what came through CloudFront reaches a route's
 * function. Its identity sources are the origin secret CloudFront adds and the viewer address the edge
 * function writes, so a request without them is refused by API Gateway with 401 before anything is
 * invoked, and a forged secret invokes only this small function (its answer cached per secret and
 * address for 5 minutes), never a route's function nor the notification route's reserved concurrency.
 * An authorized request hands the viewer's address to the access log: the address the per-IP limits
 * count. Each route's function still checks the secret (defense in depth; the local stack has no
 * authorizer).
 */
export async function handler(event: APIGatewayRequestAuthorizerEventV2): Promise<APIGatewaySimpleAuthorizerWithContextResult<OriginContext>> {
  const headers = event.headers ?? {};
  const authorized = isOriginSecret(headers[EDGE_ORIGIN_HEADER], await getRuntime().edgeSecret());
  if (!authorized) {
    logger.warn('request refused at the origin: it did not come through CloudFront', { sourceIp: event.requestContext?.http?.sourceIp });
    return { isAuthorized: false, context: { viewerIp: '-' } };
  }
  return { isAuthorized: true, context: { viewerIp: clientIp(headers[EDGE_CLIENT_IP_HEADER]) } };
}

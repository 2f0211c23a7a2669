import { timingSafeEqual } from 'node:crypto';
import { OutsideEdgeError } from '../errors';

/**
 * The deployed stack takes requests through CloudFront only (infra/cdk/edge.ts). CloudFront adds
 * `x-origin-verify` (a generated secret) to every request it forwards and the edge function sets
 * `x-gateway-client-ip` to the viewer's address. A request reaching API Gateway without the secret
 * came around the edge (straight to the execute-api address): it is refused, and only a request that
 * carries it may name its client's address.
 */
export const EDGE_ORIGIN_HEADER = 'x-origin-verify';
export const EDGE_CLIENT_IP_HEADER = 'x-gateway-client-ip';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The address the per-IP limits count for one request. Without an edge (local runs) it is API
 * Gateway's source address; behind the edge, the viewer's address the edge function wrote, once the
 * origin secret proves the request came through CloudFront (else OutsideEdgeError).
 */
export function edgeClientAddress(
  headers: Record<string, string | undefined>,
  sourceIp: string | undefined,
  originSecret: string | undefined,
): string | undefined {
  if (originSecret === undefined) return sourceIp;
  const given = headers[EDGE_ORIGIN_HEADER];
  if (given === undefined || !sameSecret(given, originSecret)) throw new OutsideEdgeError();
  return headers[EDGE_CLIENT_IP_HEADER];
}

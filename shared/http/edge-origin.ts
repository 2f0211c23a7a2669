import { timingSafeEqual } from 'node:crypto';
import { OutsideEdgeError } from '../domain/errors';

/**
 * The deployed stack takes requests through CloudFront only (infra/cdk/edge.ts). CloudFront adds
 * `x-origin-verify` (a generated secret) to every request it forwards and the edge function sets
 * `x-gateway-client-ip` to the viewer's address. A request reaching API Gateway without the secret
 * came around the edge (straight to the execute-api address): it is refused, and only a request that
 * carries it may name its client's address.
 */
export const EDGE_ORIGIN_HEADER = 'x-origin-verify';
export const EDGE_CLIENT_IP_HEADER = 'x-gateway-client-ip';

/** Whether a header value is the origin secret, compared in constant time. */
export function isOriginSecret(given: string | undefined, expected: string | undefined): boolean {
  return given !== undefined && expected !== undefined && sameSecret(given, expected);
}

/** An IPv4 or IPv6 literal as API Gateway gives it; anything else is counted under one shared name. */
const IP_LITERAL = /^[0-9A-Fa-f.:]{2,45}$/;

/** The client address the per-IP counters use (it reaches a table key: its shape and length are checked first). */
export function clientIp(sourceIp: string | undefined): string {
  return sourceIp !== undefined && IP_LITERAL.test(sourceIp) ? sourceIp : 'unknown';
}

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

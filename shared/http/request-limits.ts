/**
 * The request size limits of the API, and the refusals past them (spec 7 error shape). The same
 * figures drive the route pipeline (bodies), the local gateway (bodies and headers) and the
 * deployed edge (the CloudFront function in front of API Gateway), so a client meets one contract.
 */

/** The largest request body this API takes, in bytes (docs/decisions.md, "Bad input"). */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The request line and headers (names and values, cookies and query string included) a request may
 * carry. API Gateway HTTP APIs take 10,240 bytes of them and answer past that with their own body;
 * CloudFront adds its own headers on the way (Via, X-Amz-Cf-Id, X-Forwarded-For, the origin check),
 * so the edge refuses at 8 KB, under what API Gateway takes, and the local gateway at the same figure.
 */
export const MAX_HEADER_BYTES = 8 * 1024;

/** An answer of a gateway itself (the local one, or the deployed edge), in the spec's error shape. */
export type GatewayRefusal = { status: number; error: string; code: string };

export const PAYLOAD_TOO_LARGE: GatewayRefusal = {
  status: 413,
  error: `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MB)`,
  code: 'payload_too_large',
};

export const HEADERS_TOO_LARGE: GatewayRefusal = {
  status: 431,
  error: `The request line and headers are larger than ${MAX_HEADER_BYTES} bytes`,
  code: 'headers_too_large',
};

/** The headers every refusal carries (an error answer is never cached, never sniffed). */
export const REFUSAL_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

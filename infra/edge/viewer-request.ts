import { HEADERS_TOO_LARGE, MAX_BODY_BYTES, MAX_HEADER_BYTES, PAYLOAD_TOO_LARGE, REFUSAL_HEADERS, type GatewayRefusal } from '../../shared/http/request-limits';
import { EDGE_CLIENT_IP_HEADER, EDGE_ORIGIN_HEADER } from '../../shared/http/edge-origin';

/** A refusal as a CloudFront Functions response object (runtime 2.0: lower-case header names, a text body). */
function responseObject(refusal: GatewayRefusal): string {
  const headers = Object.fromEntries(Object.entries(REFUSAL_HEADERS).map(([name, value]) => [name.toLowerCase(), { value }]));
  return JSON.stringify({
    statusCode: refusal.status,
    statusDescription: refusal.status === 413 ? 'Payload Too Large' : 'Request Header Fields Too Large',
    headers,
    body: { encoding: 'text', data: JSON.stringify({ error: refusal.error, code: refusal.code }) },
  });
}

/**
 * The source of the CloudFront function (JavaScript runtime 2.0, viewer request) in front of the
 * HTTP API. It runs before API Gateway sees a request, which is the only place the deployed stack
 * can answer past API Gateway's own limits in the spec's shape (HTTP APIs have no gateway responses):
 * - a declared body past 1 MB → 413 payload_too_large (API Gateway would take 10 MB, Lambda 6 MB);
 * - request line, query string, headers and cookies past 8 KB → 431 headers_too_large (API Gateway
 *   answers past 10,240 bytes with its own body, and CloudFront adds headers on the way);
 * - otherwise the request goes on with the viewer's address in `x-gateway-client-ip`, overwriting
 *   whatever the client sent there: the per-IP rate limits count callers, not CloudFront's edges.
 * The limits come from shared/http/request-limits.ts, so this function, the route pipeline and the
 * local gateway (which runs this same source) hold one contract. CloudFront Functions take no
 * imports and ES 2020 at most: the source is written out here as text, with the figures inlined.
 */
export function viewerRequestSource(): string {
  return `var MAX_BODY_BYTES = ${MAX_BODY_BYTES};
var MAX_HEADER_BYTES = ${MAX_HEADER_BYTES};
var PAYLOAD_TOO_LARGE = ${responseObject(PAYLOAD_TOO_LARGE)};
var HEADERS_TOO_LARGE = ${responseObject(HEADERS_TOO_LARGE)};

function fieldBytes(fields, separator) {
  var total = 0;
  for (var name in fields) {
    var field = fields[name];
    total += name.length + separator + field.value.length;
    var more = field.multiValue || [];
    for (var i = 1; i < more.length; i++) total += name.length + separator + more[i].value.length;
  }
  return total;
}

function handler(event) {
  var request = event.request;
  var length = request.headers['content-length'];
  if (length && Number(length.value) > MAX_BODY_BYTES) return PAYLOAD_TOO_LARGE;
  var lineAndHeaders = request.method.length + request.uri.length + 11
    + fieldBytes(request.querystring, 2) + fieldBytes(request.headers, 4) + fieldBytes(request.cookies, 3);
  if (lineAndHeaders > MAX_HEADER_BYTES) return HEADERS_TOO_LARGE;
  delete request.headers['${EDGE_ORIGIN_HEADER}'];
  request.headers['${EDGE_CLIENT_IP_HEADER}'] = { value: event.viewer.ip };
  return request;
}
`;
}

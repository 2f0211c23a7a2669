import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { API_FUNCTION_TIMEOUT_MS } from '../../shared/domain/time-budgets';

export type IncomingRequest = {
  method: string;
  /** Path and query string, as in the request line. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  sourceIp: string;
  host: string;
};

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml|yaml)|text\/)/i;

/**
 * The API Gateway HTTP API payload 2.0 event for a request, as API Gateway builds it: lower-case
 * headers joined by commas, cookies apart, repeated query values joined by commas, the client's
 * address as requestContext.http.sourceIp, and binary bodies base64-encoded.
 */
export function toHttpApiEvent(request: IncomingRequest, routeKey: string, pathParameters: Record<string, string> | undefined): APIGatewayProxyEventV2 {
  const parsed = new URL(request.url, 'http://local');
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (lower === 'cookie') {
      cookies = (Array.isArray(value) ? value.join('; ') : value).split(/;\s*/).filter(Boolean);
      continue;
    }
    headers[lower] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of parsed.searchParams) {
    Object.defineProperty(query, name, {
      value: Object.hasOwn(query, name) ? `${query[name]},${value}` : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const contentType = headers['content-type'] ?? '';
  const isText = request.body.length === 0 || contentType === '' || TEXT_TYPES.test(contentType);
  const now = new Date();
  const requestId = randomUUID();
  return {
    version: '2.0',
    routeKey,
    rawPath: parsed.pathname,
    rawQueryString: parsed.search.slice(1),
    ...(cookies ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length > 0 ? { queryStringParameters: query } : {}),
    ...(pathParameters && Object.keys(pathParameters).length > 0 ? { pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: request.host,
      domainPrefix: request.host.split('.')[0] ?? request.host,
      http: {
        method: request.method.toUpperCase(),
        path: parsed.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: apiGatewayTime(now),
      timeEpoch: now.getTime(),
    },
    ...(request.body.length > 0 ? { body: isText ? request.body.toString('utf8') : request.body.toString('base64') } : {}),
    isBase64Encoded: request.body.length > 0 && !isText,
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** requestContext.time as API Gateway writes it: 14/Oct/2026:12:00:00 +0000. */
function apiGatewayTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

/** A Lambda context for one local invocation. */
export function lambdaContext(functionName: string, timeoutMs = API_FUNCTION_TIMEOUT_MS): Context {
  const deadline = Date.now() + timeoutMs;
  const requestId = randomUUID();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

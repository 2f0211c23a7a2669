import type { IncomingMessage } from 'node:http';
import { createContext, Script } from 'node:vm';
import { viewerRequestSource } from '../edge/viewer-request';

/** A header, cookie or query parameter as CloudFront Functions see it. */
type CfField = { value: string; multiValue?: { value: string }[] };
type CfFields = Record<string, CfField>;

export type EdgeRequest = { method: string; uri: string; querystring: CfFields; headers: CfFields; cookies: CfFields };
export type EdgeResponse = { statusCode: number; statusDescription?: string; headers?: CfFields; body?: { encoding: string; data: string } };
export type EdgeEvent = { version: '1.0'; context: { eventType: 'viewer-request' }; viewer: { ip: string }; request: EdgeRequest };
export type EdgeFunction = (event: EdgeEvent) => EdgeRequest | EdgeResponse;

/** What the edge did with a request: answered it itself, or let it on with these headers. */
export type EdgeOutcome =
  { kind: 'answer'; status: number; headers: Record<string, string>; body: string } | { kind: 'forward'; headers: Record<string, string | string[]> };

/** The deployed CloudFront function, compiled once from the same source the stack deploys, in a context of its own. */
export function loadEdgeFunction(source: string = viewerRequestSource()): EdgeFunction {
  const context = createContext({});
  new Script(`${source}\nthis.handler = handler;`).runInContext(context);
  const handler: unknown = context.handler;
  if (typeof handler !== 'function') throw new Error('The edge function source defines no handler');
  return handler as EdgeFunction;
}

function field(values: readonly string[]): CfField {
  const [first = ''] = values;
  return values.length > 1 ? { value: first, multiValue: values.map((value) => ({ value })) } : { value: first };
}

function addTo(fields: CfFields, name: string, value: string): void {
  const existing = Object.hasOwn(fields, name) ? fields[name] : undefined;
  const values = existing ? [...(existing.multiValue ?? [existing]).map((v) => v.value), value] : [value];
  Object.defineProperty(fields, name, { value: field(values), enumerable: true, writable: true, configurable: true });
}

/** The viewer-request event CloudFront builds for a request: lower-case headers, cookies and query parameters apart. */
export function edgeEvent(req: IncomingMessage, viewerIp: string): EdgeEvent {
  const url = new URL(req.url ?? '/', 'http://local');
  const headers: CfFields = {};
  const cookies: CfFields = {};
  for (const [name, values] of Object.entries(req.headersDistinct)) {
    if (values === undefined) continue;
    if (name === 'cookie') {
      for (const pair of values.join('; ').split(/;\s*/).filter(Boolean)) {
        const eq = pair.indexOf('=');
        addTo(cookies, eq < 0 ? pair : pair.slice(0, eq), eq < 0 ? '' : pair.slice(eq + 1));
      }
      continue;
    }
    for (const value of values) addTo(headers, name, value);
  }
  const querystring: CfFields = {};
  for (const [name, value] of url.searchParams) addTo(querystring, name, value);
  return {
    version: '1.0',
    context: { eventType: 'viewer-request' },
    viewer: { ip: viewerIp },
    request: { method: req.method ?? 'GET', uri: url.pathname, querystring, headers, cookies },
  };
}

function isResponse(result: EdgeRequest | EdgeResponse): result is EdgeResponse {
  return 'statusCode' in result;
}

/** Runs the edge function on a request, as CloudFront does before forwarding it to API Gateway. */
export function passEdge(edge: EdgeFunction, req: IncomingMessage, viewerIp: string): EdgeOutcome {
  const result = edge(edgeEvent(req, viewerIp));
  if (isResponse(result)) {
    const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([name, f]) => [name, f.value]));
    return { kind: 'answer', status: result.statusCode, headers, body: result.body?.data ?? '' };
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, f] of Object.entries(result.headers)) headers[name] = f.multiValue ? f.multiValue.map((v) => v.value) : f.value;
  if (req.headers.cookie !== undefined) headers.cookie = req.headers.cookie;
  return { kind: 'forward', headers };
}

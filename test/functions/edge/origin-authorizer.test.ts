import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/edge/origin-authorizer';
import { EDGE_CLIENT_IP_HEADER, EDGE_ORIGIN_HEADER } from '../../../shared/http/edge-origin';
import { getRuntime, overrideRuntime } from '../../../shared/wiring/runtime';
import { useLocalStackEnvironment } from '../../support/api';

const SECRET = 'origin-secret-0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCD';

function event(headers: Record<string, string>): APIGatewayRequestAuthorizerEventV2 {
  return {
    version: '2.0',
    type: 'REQUEST',
    routeArn: 'arn:aws:execute-api:us-east-1:000000000000:api/$default/GET/api/balance',
    identitySource: Object.values(headers),
    routeKey: 'GET /api/balance',
    rawPath: '/api/balance',
    rawQueryString: '',
    headers,
    requestContext: { http: { method: 'GET', path: '/api/balance', protocol: 'HTTP/1.1', sourceIp: '198.51.100.7', userAgent: 'x' } },
  } as unknown as APIGatewayRequestAuthorizerEventV2;
}

describe('the edge-origin authorizer (issue 25)', () => {
  beforeAll(() => {
    useLocalStackEnvironment();
  });

  it('authorizes what carries the origin secret and hands the viewer address to the access log; refuses anything else', async () => {
    const base = getRuntime();
    overrideRuntime({ edgeSecret: async () => SECRET });
    try {
      expect(await handler(event({ [EDGE_ORIGIN_HEADER]: SECRET, [EDGE_CLIENT_IP_HEADER]: '203.0.113.9' }))).toEqual({
        isAuthorized: true,
        context: { viewerIp: '203.0.113.9' },
      });
      // A malformed address is counted under one shared name, as the per-IP limits do.
      expect(await handler(event({ [EDGE_ORIGIN_HEADER]: SECRET, [EDGE_CLIENT_IP_HEADER]: 'not an ip; drop table' }))).toEqual({
        isAuthorized: true,
        context: { viewerIp: 'unknown' },
      });
      const refused: Record<string, string>[] = [
        { [EDGE_ORIGIN_HEADER]: `${SECRET}x`, [EDGE_CLIENT_IP_HEADER]: '203.0.113.9' },
        { [EDGE_CLIENT_IP_HEADER]: '203.0.113.9' },
        {},
      ];
      for (const headers of refused) {
        expect(await handler(event(headers))).toEqual({ isAuthorized: false, context: { viewerIp: '-' } });
      }
      // No origin secret configured (never the case behind the edge): nothing is authorized.
      overrideRuntime({ edgeSecret: async () => undefined });
      expect((await handler(event({ [EDGE_ORIGIN_HEADER]: SECRET }))).isAuthorized).toBe(false);
    } finally {
      overrideRuntime({ edgeSecret: base.edgeSecret });
    }
  });
});

import { describe, expect, it } from 'vitest';
import { OutsideEdgeError } from '../../../shared/domain/errors';
import { EDGE_CLIENT_IP_HEADER, EDGE_ORIGIN_HEADER } from '../../../shared/http/edge-origin';
import { admitCaller } from '../../../shared/http/middleware/admit';
import { routes } from '../../../shared/http/routes';
import type { PipelineRequest } from '../../../shared/http/state';
import type { Runtime } from '../../../shared/wiring/runtime';
import { parseConfig } from '../../../shared/platform/config';
import { retryBudget } from '../../../shared/adapters/dynamo/contention';
import { systemClock } from '../../../shared/ports/clock';

const SECRET = 's'.repeat(64);

/** A runtime whose table records the keys of the counters it is asked to update (and answers as DynamoDB would). */
function runtimeBehindEdge(originSecret: string | undefined): { runtime: Runtime; keys: string[] } {
  const keys: string[] = [];
  const db = {
    send: (command: { input: { Key?: Record<string, unknown> } }) => {
      keys.push(JSON.stringify(command.input.Key));
      return Promise.resolve({});
    },
  };
  const runtime = {
    config: parseConfig({ TABLE_NAME: 't', MASTER_KEY_SECRET_ID: 'm' }),
    db,
    clock: systemClock,
    serviceKeys: () => Promise.reject(new Error('not used')),
    edgeSecret: () => Promise.resolve(originSecret),
    resolve: () => Promise.reject(new Error('not used')),
  } as unknown as Runtime;
  return { runtime, keys };
}

function request(runtime: Runtime, headers: Record<string, string>, sourceIp: string): PipelineRequest {
  return {
    event: { headers, requestContext: { http: { sourceIp } } },
    context: { state: { route: routes.boletoPage, runtime, budget: retryBudget(), startedAt: Date.now() } },
  } as unknown as PipelineRequest;
}

describe('admitCaller behind the edge (the deployed stack)', () => {
  it('refuses a request that reached API Gateway around CloudFront, before counting or reading anything', async () => {
    const { runtime, keys } = runtimeBehindEdge(SECRET);
    await expect(admitCaller().before?.(request(runtime, { [EDGE_CLIENT_IP_HEADER]: '198.51.100.9' }, '203.0.113.1'))).rejects.toBeInstanceOf(OutsideEdgeError);
    await expect(admitCaller().before?.(request(runtime, { [EDGE_ORIGIN_HEADER]: 'x'.repeat(64) }, '203.0.113.1'))).rejects.toBeInstanceOf(OutsideEdgeError);
    expect(keys).toEqual([]);
  });

  it("counts the viewer's address the edge named, not CloudFront's", async () => {
    const { runtime, keys } = runtimeBehindEdge(SECRET);
    await admitCaller().before?.(request(runtime, { [EDGE_ORIGIN_HEADER]: SECRET, [EDGE_CLIENT_IP_HEADER]: '198.51.100.9' }, '130.176.1.1'));
    expect(keys).toHaveLength(1);
    expect(keys[0]).toContain('198.51.100.9');
    expect(keys[0]).not.toContain('130.176.1.1');
  });

  it("without an edge (local runs) counts API Gateway's source address and ignores a claimed one", async () => {
    const { runtime, keys } = runtimeBehindEdge(undefined);
    await admitCaller().before?.(request(runtime, { [EDGE_CLIENT_IP_HEADER]: '198.51.100.9' }, '127.0.0.9'));
    expect(keys).toHaveLength(1);
    expect(keys[0]).toContain('127.0.0.9');
    expect(keys[0]).not.toContain('198.51.100.9');
  });
});

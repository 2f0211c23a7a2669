import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { routeGroupHandler, sharedRouteKeys } from '../../../shared/http/route-group';
import { panelAccessRoutes, panelMoneyRoutes } from '../../../shared/http/route-table/panel';

const event = (routeKey: string, method: string) => ({ routeKey, requestContext: { http: { method } } }) as unknown as APIGatewayProxyEventV2;

describe('a function several routes share', () => {
  const handler = routeGroupHandler([
    [panelMoneyRoutes.panelWithdrawals, async () => 'list'],
    [panelMoneyRoutes.panelRequestWithdrawal, async () => 'form'],
    [panelMoneyRoutes.panelWithdrawal, async () => 'detail'],
  ]);

  it('answers each row by its route key, and a path’s ANY route by the request’s method', async () => {
    expect(await handler(event('GET /panel/saques/{reference}', 'GET'), {})).toBe('detail');
    expect(await handler(event('ANY /panel/saques', 'GET'), {})).toBe('list');
    expect(await handler(event('ANY /panel/saques', 'POST'), {})).toBe('form');
  });

  it('answers a method of no row on an ANY route with the JSON 405 and its Allow header', async () => {
    const answer = (await handler(event('ANY /panel/saques', 'DELETE'), {})) as { statusCode: number; headers: Record<string, string>; body: string };
    expect(answer.statusCode).toBe(405);
    expect(answer.headers.Allow).toBe('GET, POST');
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'method_not_allowed' });
    await expect(handler(event('GET /panel/faturas', 'GET'), {})).rejects.toThrow('serves no route');
  });

  it('gives a path served with several methods one ANY route key, every other row its own', () => {
    const keys = sharedRouteKeys(Object.values(panelAccessRoutes)).map((k) => `${k.method} ${k.path}`);
    expect(keys).toContain('ANY /panel/entrar');
    expect(keys).toContain('ANY /panel/convite/{token}');
    expect(keys).toContain('POST /panel/sair');
    expect(keys).not.toContain('GET /panel/entrar');
    expect(sharedRouteKeys(Object.values(panelAccessRoutes)).flatMap((k) => k.routes)).toHaveLength(Object.keys(panelAccessRoutes).length);
  });
});

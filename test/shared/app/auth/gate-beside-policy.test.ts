import { describe, expect, it } from 'vitest';
import { gateGoesBeside, readsBesideTheGate } from '../../../../shared/app/auth/admit';
import { routeList } from '../../../../shared/http/routes';

/**
 * What goes out before the gate's verdict (issue 26) must be harmless to a refused call: a read route
 * running beside the gate changes nothing and calls no provider, and every route whose gate goes
 * beside its work is a Bearer route counted per account (its caller known from the token alone).
 */
describe('the routes whose work goes out beside the gate', () => {
  const beside = routeList.filter((route) => readsBesideTheGate(route));

  it('are the Bearer reads counted per account, every one of them', () => {
    expect(beside.map((r) => r.id).sort()).toEqual(
      routeList
        .filter((r) => r.auth === 'bearer' && r.rateLimit === 'account' && r.access === 'read')
        .map((r) => r.id)
        .sort(),
    );
    expect(beside.length).toBeGreaterThanOrEqual(10);
  });

  it('change nothing and call no provider, so a read thrown away leaves nothing behind', () => {
    for (const route of beside) {
      expect(route.changes ?? [], route.id).toEqual([]);
      expect(route.idempotency, route.id).toBe('none');
      expect(route.usesPixProvider ?? false, route.id).toBe(false);
      expect(route.usesProviderCredentials ?? false, route.id).toBe(false);
    }
  });

  it('never include a public, Basic or per-IP route: their gate is passed first, as before', () => {
    for (const route of routeList.filter((r) => gateGoesBeside(r))) {
      expect(route.auth, route.id).toBe('bearer');
      expect(route.rateLimit, route.id).toBe('account');
    }
    expect(routeList.filter((r) => r.auth !== 'bearer' || r.rateLimit !== 'account').some((r) => gateGoesBeside(r))).toBe(false);
  });
});

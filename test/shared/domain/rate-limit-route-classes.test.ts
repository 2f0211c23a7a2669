import { describe, expect, it } from 'vitest';
import { routeList, routes } from '../../../shared/http/routes';
import { countsFailedAuth, failedCredentialsClass, ipLimitClassOf, mayBeRateLimited } from '../../../shared/domain/route-policy';

describe('which per-IP counter each route spends (issue 17, item 4)', () => {
  it("counts the boleto page in 'public', and the provider's notifications there only when their signature is refused", () => {
    expect(ipLimitClassOf(routes.boletoPage)).toBe('public');
    expect(ipLimitClassOf(routes.providerNotification)).toBeUndefined();
    expect(failedCredentialsClass(routes.providerNotification)).toBe('public');
    expect(failedCredentialsClass(routes.boletoPage)).toBeUndefined();
    expect(failedCredentialsClass(routes.balance)).toBe('unauthenticated');
  });

  it('keeps the classes the routes name', () => {
    expect(ipLimitClassOf(routes.authToken)).toBe('auth');
    expect(ipLimitClassOf(routes.searchCep)).toBe('cep');
    expect(ipLimitClassOf(routes.checkoutPage)).toBe('checkout');
    expect(ipLimitClassOf(routes.balance)).toBeUndefined();
  });

  it('leaves only the OpenAPI document (no table access) uncounted among public routes', () => {
    const uncounted = routeList.filter((r) => r.auth === 'none' && ipLimitClassOf(r) === undefined && failedCredentialsClass(r) === undefined).map((r) => r.id);
    expect(uncounted).toEqual([routes.openApiDocument.id]);
    expect(routes.openApiDocument.access).toBe('none');
  });

  it('counts failed tokens on every Bearer route, and only there', () => {
    for (const route of routeList) expect(countsFailedAuth(route), route.id).toBe(route.auth === 'bearer');
  });

  it('says which routes may answer 429: all but the OpenAPI document', () => {
    expect(routeList.filter((r) => !mayBeRateLimited(r)).map((r) => r.id)).toEqual([routes.openApiDocument.id]);
  });

  it("treats an explicit 'public' like the implicit one, and never counts a route without table access", () => {
    expect(ipLimitClassOf({ auth: 'none', rateLimit: 'public', access: 'read' })).toBe('public');
    expect(ipLimitClassOf({ auth: 'none', rateLimit: 'none', access: 'none' })).toBeUndefined();
    expect(ipLimitClassOf({ auth: 'bearer', rateLimit: 'none', access: 'read' })).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { API_TIMEOUT_SECONDS, API_GATEWAY_INTEGRATION_LIMIT_SECONDS } from '../../../infra/cdk/api-function';
import { lambdaContext } from '../../../infra/local/apigw-event';
import { parseConfig } from '../../../shared/platform/config';
import {
  API_FUNCTION_TIMEOUT_MS,
  CLEANUP_WINDOW_MS,
  DEADLINE_MARGIN_MS,
  fitsFunction,
  MAX_OUTBOUND_LIMITS,
  openCardAttemptStaleAfterMs,
  outboundChains,
  requestMayStillArrive,
  PROVIDER_TIMEOUT_MAX_MS,
  worstCaseMs,
} from '../../../shared/domain/time-budgets';
import { routeList } from '../../../shared/http/routes';

/**
 * Issue 44, finding 3: every API route's worst-case chain of outbound calls (a call at its limit, then
 * its follow-up at its limit) fits its function's timeout with margin, at the most each limit may be
 * configured to; the stack, the local runs and the configuration take their numbers from the one module.
 */
const env = { TABLE_NAME: 't', MASTER_KEY_SECRET_ID: 'k' };

describe('time budgets of the API functions', () => {
  const chains = outboundChains(MAX_OUTBOUND_LIMITS);

  it('every route with outbound calls fits its function timeout with margin, at the most each limit can be configured to', () => {
    expect(Object.keys(chains).length).toBeGreaterThan(0);
    for (const [routeId, chain] of Object.entries(chains)) {
      expect(
        routeList.map((route) => route.id),
        routeId,
      ).toContain(routeId);
      expect(worstCaseMs(chain), `${routeId}: ${chain.map((c) => `${c.call} ${c.timeoutMs} ms`).join(' + ')}`).toBeLessThanOrEqual(API_FUNCTION_TIMEOUT_MS);
    }
  });

  it('the card charge counts its status check after the authorization: the old 5 s + 5 s in 10 s does not fit', () => {
    const card = chains.CreateCardCharge ?? [];
    expect(card.map((c) => c.call)).toEqual(['card authorization', 'card authorization status']);
    const old = outboundChains({ ...MAX_OUTBOUND_LIMITS, providerMs: 5_000 }).CreateCardCharge ?? [];
    expect(fitsFunction(old, 10_000)).toBe(false);
    expect(fitsFunction(card, API_FUNCTION_TIMEOUT_MS)).toBe(true);
  });

  it('the stack, the local invocations and the configuration read the one budget', () => {
    expect(API_TIMEOUT_SECONDS * 1000).toBe(API_FUNCTION_TIMEOUT_MS);
    expect(API_TIMEOUT_SECONDS).toBeLessThan(API_GATEWAY_INTEGRATION_LIMIT_SECONDS);
    expect(lambdaContext('x').getRemainingTimeInMillis()).toBeGreaterThan(API_FUNCTION_TIMEOUT_MS - 1_000);
    const config = parseConfig(env);
    const defaults = outboundChains({ providerMs: config.payments.timeoutMs, dnsMs: config.webhooks.dnsTimeoutMs, cepMs: config.cep.timeoutMs });
    for (const chain of Object.values(defaults)) expect(fitsFunction(chain, API_FUNCTION_TIMEOUT_MS)).toBe(true);
    // A limit that would not fit is refused at start-up.
    expect(() => parseConfig({ ...env, PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MAX_MS + 1) })).toThrow(/PROVIDER_TIMEOUT_MS/);
    expect(() => parseConfig({ ...env, DNS_TIMEOUT_MS: String(MAX_OUTBOUND_LIMITS.dnsMs + 1) })).toThrow(/DNS_TIMEOUT_MS/);
    expect(() => parseConfig({ ...env, CEP_TIMEOUT_MS: String(MAX_OUTBOUND_LIMITS.cepMs + 1) })).toThrow(/CEP_TIMEOUT_MS/);
  });

  it('the clean-up window ends inside the margin; an idempotency lock expires within a minute', () => {
    expect(CLEANUP_WINDOW_MS).toBeLessThan(DEADLINE_MARGIN_MS - 500);
    expect(parseConfig(env).idempotency.lockSeconds).toBeLessThanOrEqual(60);
    expect(() => parseConfig({ ...env, IDEMPOTENCY_LOCK_SECONDS: '61' })).toThrow(/IDEMPOTENCY_LOCK_SECONDS/);
  });

  it('the settler asks about an OPEN card attempt only once its invocation is surely over and its request can no longer arrive', () => {
    expect(openCardAttemptStaleAfterMs(3_000)).toBeGreaterThanOrEqual(API_FUNCTION_TIMEOUT_MS + 2 * 3_000);
  });
});

describe('a card request that may still reach its provider', () => {
  it('may until twice the provider time limit has passed since it was sent, not after', () => {
    const sentAt = '2026-11-27T12:00:00.000Z';
    const at = (ms: number) => new Date(Date.parse(sentAt) + ms);
    expect(requestMayStillArrive(sentAt, at(0), 3_000)).toBe(true);
    expect(requestMayStillArrive(sentAt, at(5_999), 3_000)).toBe(true);
    expect(requestMayStillArrive(sentAt, at(6_000), 3_000)).toBe(false);
    expect(requestMayStillArrive(sentAt, at(60_000), 3_000)).toBe(false);
  });
});

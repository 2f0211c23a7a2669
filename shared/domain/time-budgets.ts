/**
 * The API functions' time budgets (issue 44, finding 3): ONE place that says how long an API route's
 * function may run, what is kept back at its end, and how long each outbound call may take, so that
 * every route's worst-case chain of outbound calls (a call, then its follow-up: a status check, a
 * compensation, a write-off) fits inside the function's timeout with margin. Values only: the CDK
 * stack, the configuration's limits, the request deadline and the budget test read them from here.
 */

/** Every API route function's timeout (infra/cdk/api-function.ts), well inside API Gateway's 30 s integration limit. */
export const API_FUNCTION_TIMEOUT_MS = 15_000;

/**
 * Kept back from the end of every request: the DynamoDB calls of the request stop this long before the
 * function's timeout (shared/adapters/dynamo/deadline.ts), leaving the clean-up window and the answer's way out.
 */
export const DEADLINE_MARGIN_MS = 1_500;

/**
 * The clean-up after a failure (the idempotency lock's release, the error answer stored for the key, a
 * compensation's table calls) runs until this long after the request's deadline, never longer: the
 * answer then still leaves DEADLINE_MARGIN_MS - CLEANUP_WINDOW_MS before the function's timeout.
 */
export const CLEANUP_WINDOW_MS = 800;

/** What a route's DynamoDB calls before, between and after its outbound calls may take together, in the budget. */
export const TABLE_ALLOWANCE_MS = 3_000;

/** PROVIDER_TIMEOUT_MS: the default limit of one payment provider call, and the most it may be configured to. */
export const PROVIDER_TIMEOUT_DEFAULT_MS = 3_000;
export const PROVIDER_TIMEOUT_MAX_MS = 3_500;
/** DNS_TIMEOUT_MS (a webhook host's look-up) and CEP_TIMEOUT_MS (the public CEP services, asked at once): default and most. */
export const DNS_TIMEOUT_DEFAULT_MS = 2_000;
export const DNS_TIMEOUT_MAX_MS = 3_000;
export const CEP_TIMEOUT_DEFAULT_MS = 3_000;
export const CEP_TIMEOUT_MAX_MS = 5_000;

/** The limits a chain is counted with (the configured ones, or their most for the budget test). */
export type OutboundLimits = { providerMs: number; dnsMs: number; cepMs: number };

export const MAX_OUTBOUND_LIMITS: OutboundLimits = { providerMs: PROVIDER_TIMEOUT_MAX_MS, dnsMs: DNS_TIMEOUT_MAX_MS, cepMs: CEP_TIMEOUT_MAX_MS };

/** One outbound call of a chain: what it is and its hard limit. */
export type OutboundCall = { call: string; timeoutMs: number };

/**
 * The worst-case chain of outbound calls of each API route that makes any, in order: the calls a
 * request can make one after another at their limits (a route run again on an id clash repeats its calls).
 */
export function outboundChains(limits: OutboundLimits): Record<string, readonly OutboundCall[]> {
  const p = (call: string): OutboundCall => ({ call, timeoutMs: limits.providerMs });
  return {
    // The authorization, then (its answer lost) the status check under its key; or approved, then the void of an unrecorded one.
    CreateCardCharge: [p('card authorization'), p('card authorization status')],
    CheckoutCardPayment: [p('card authorization'), p('void of an unrecorded authorization')],
    CreatePixCharge: [p('pix charge')],
    // A BolePix: the boleto, its Pix half, and the boleto's write-off when the Pix half fails.
    CreateBoletoCharge: [p('boleto registration'), p('due-date pix charge'), p('boleto write-off')],
    // Run again (up to 3 times) when a drawn id is taken: a Pix charge per run.
    CheckoutEntry: [p('pix charge'), p('pix charge (id clash)'), p('pix charge (id clash)')],
    ProviderPixCallback: [p('pix charge lookup')],
    SearchCep: [{ call: 'public CEP services', timeoutMs: limits.cepMs }],
    PutWebhook: [{ call: 'webhook host DNS look-up', timeoutMs: limits.dnsMs }],
    PanelSetWebhook: [{ call: 'webhook host DNS look-up', timeoutMs: limits.dnsMs }],
  };
}

/** The worst case of a chain: its calls at their limits, the table's allowance, and the deadline's margin. */
export function worstCaseMs(chain: readonly OutboundCall[]): number {
  return chain.reduce((sum, call) => sum + call.timeoutMs, 0) + TABLE_ALLOWANCE_MS + DEADLINE_MARGIN_MS;
}

/** Whether a chain fits a function's timeout with its margin. */
export function fitsFunction(chain: readonly OutboundCall[], functionTimeoutMs: number): boolean {
  return worstCaseMs(chain) <= functionTimeoutMs;
}

/**
 * How old an OPEN card attempt must be before the settler asks about it (issue 44): past the function's
 * timeout its invocation is over (answered or killed; counted twice, for the clocks of the function and
 * the settler), and past two provider limits more, a request it sent can no longer reach the provider.
 */
export function openCardAttemptStaleAfterMs(providerTimeoutMs: number): number {
  return 2 * API_FUNCTION_TIMEOUT_MS + 2 * providerTimeoutMs;
}

/**
 * Whether a card request sent at `sentAtIso` may still reach its provider (its own time limit, twice over,
 * has not passed): until then a provider's "not found" proves nothing, and the attempt waits.
 */
export function requestMayStillArrive(sentAtIso: string, now: Date, providerTimeoutMs: number): boolean {
  return now.getTime() - Date.parse(sentAtIso) < 2 * providerTimeoutMs;
}

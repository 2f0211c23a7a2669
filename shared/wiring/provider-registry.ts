import type { Config } from '../platform/config';
import { apiPixProvider } from '../adapters/providers/apipix/adapter';
import { CORE_ADAPTERS, defaultRegistry, UnknownAdapterError } from './adapter-registry';
import type { PixProvider } from '../ports/payment-provider';

export * from './adapter-registry';

/**
 * The Pix providers: the registry of ./adapter-registry.ts with API Pix added. Every function that
 * resolves a Pix provider imports this module (pixProvider lives only here), so API Pix is registered
 * before any resolution; the card functions import ./adapter-registry.ts alone and bundle no API Pix
 * client.
 */
function apiPix(config: Config): PixProvider {
  // Not configured (no APIPIX_* settings): no provider answers to the name here.
  if (!config.apiPix) throw new UnknownAdapterError('payment provider', 'apipix');
  return apiPixProvider(config);
}

/** The adapters this service ships: the simulated provider and bank, and API Pix for Pix charges. */
export const BUILT_IN_ADAPTERS = {
  paymentProviders: { ...CORE_ADAPTERS.paymentProviders, apipix: apiPix },
  banks: CORE_ADAPTERS.banks,
} as const;

defaultRegistry.registerPaymentProvider('apipix', apiPix);

/** The Pix provider named `name` (default: PAYMENT_PROVIDER); UnknownAdapterError when none is. */
export function pixProvider(config: Config, name?: string): PixProvider {
  return defaultRegistry.pixProvider(config, name);
}

/** The provider a request names (a path's `{name}`), or undefined when no provider answers to it (the route's 404). */
export function namedPixProvider(config: Config, name: string): PixProvider | undefined {
  try {
    return pixProvider(config, name);
  } catch (err) {
    if (err instanceof UnknownAdapterError) return undefined;
    throw err;
  }
}

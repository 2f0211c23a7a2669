import type { Config } from '../config';
import type { PaymentProvider } from './port';
import { paymentProvider } from './registry';

/**
 * The configured payment provider.
 * @deprecated Resolve through the registry (`paymentProvider(config, name?)` in ./registry): it resolves
 * by name, e.g. the provider an invoice records. Kept only until the last callers move.
 */
export function providerFor(config: Config): PaymentProvider {
  return paymentProvider(config);
}

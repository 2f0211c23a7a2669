import type { Config } from '../config';
import type { PaymentProvider } from './port';
import { simulatedProvider } from './simulated';

let cached: PaymentProvider | undefined;

/** The payment provider the configuration names (only the simulated one exists so far). */
export function providerFor(config: Config): PaymentProvider {
  cached ??= simulatedProvider({ locationBase: config.publicBaseUrl });
  return cached;
}

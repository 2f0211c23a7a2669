import type { Config } from '../platform/config';
import { fixtureCepLookup } from '../adapters/cep/fixture';
import type { CepLookup } from '../ports/cep';
import { publicCepLookup } from '../adapters/cep/public';

/** The CEP adapter the configuration names: public services in AWS, the bundled fixture locally. */
export function cepLookupFor(config: Config): CepLookup {
  return config.cep.provider === 'fixture' ? fixtureCepLookup : publicCepLookup(config.cep.timeoutMs);
}

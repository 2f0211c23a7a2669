import type { Config } from '../config';
import { fixtureCepLookup } from './fixture';
import type { CepLookup } from './port';
import { publicCepLookup } from './public';

/** The CEP adapter the configuration names: public services in AWS, the bundled fixture locally. */
export function cepLookupFor(config: Config): CepLookup {
  return config.cep.provider === 'fixture' ? fixtureCepLookup : publicCepLookup(config.cep.timeoutMs);
}

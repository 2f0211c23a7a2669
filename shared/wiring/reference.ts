import { cepCompilers, dynamoCepCache } from '../adapters/dynamo/cep-cache';
import type { ChangeCompilers } from '../adapters/dynamo/changes';
import type { CepSearchPorts } from '../app/reference/search-cep';
import { cepLookupFor } from './cep-lookup';
import type { Runtime } from './runtime';

/** The changes of the CEP search: an address cached. */
export const cepChanges: ChangeCompilers = cepCompilers;

/** The CEP search over the table's cache and the configured source. */
export function cepPorts(runtime: Runtime): CepSearchPorts {
  return { cache: dynamoCepCache(runtime.db, runtime.config.tableName), lookup: cepLookupFor(runtime.config) };
}

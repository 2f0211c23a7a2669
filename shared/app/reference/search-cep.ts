import { CEP_CACHE_SECONDS, type CepAddress } from '../../domain/cep';
import type { Change } from '../../domain/changes';
import { NotFoundError, UpstreamError } from '../../domain/errors';
import type { CepCache } from '../../ports/cep';
import { CepUnavailableError, type CepLookup } from '../../ports/cep';

export type CepSearchPorts = { cache: CepCache; lookup: CepLookup };

/**
 * GET /api/cep/search/{cep}: the address of a CEP (8 digits), from the cache while it is fresh, else
 * from the configured source (then cached). Unknown: 404; every source down: 502 upstream_unavailable.
 */
export async function searchCep(ports: CepSearchPorts, cep: string, nowSeconds: number): Promise<{ answer: CepAddress; changes: Change[] }> {
  const cached = await ports.cache.get(cep, nowSeconds);
  if (cached) return { answer: cached, changes: [] };
  let found;
  try {
    found = await ports.lookup.lookup(cep);
  } catch (err) {
    if (err instanceof CepUnavailableError) throw new UpstreamError('upstream_unavailable', 'The postal-code services are unavailable; try again later');
    throw err;
  }
  if (!found) throw new NotFoundError('CEP not found');
  return { answer: found, changes: [{ kind: 'cep.cached', address: found, expiresAt: nowSeconds + CEP_CACHE_SECONDS }] };
}

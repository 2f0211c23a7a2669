import { unixSeconds } from '../../shared/clock';
import { cacheWrite, cachedAddress } from '../../shared/cep/cache';
import { CepUnavailableError, normalizeCep } from '../../shared/cep/port';
import { cepLookupFor } from '../../shared/cep/select';
import { NotFoundError, UpstreamError, ValidationError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { referenceRoutes as routes } from '../../shared/http/route-table/reference';

/** GET /api/cep/search/{cep}: the address of a CEP, from the cache or the configured source. */
export const handler = httpHandler(routes.searchCep, async ({ params, runtime, now }) => {
  const cep = normalizeCep(params.cep);
  if (!cep) throw new ValidationError({ cep: ['Must be a CEP of 8 digits, e.g. 01310-100'] });
  const { db, config } = runtime;
  const nowSeconds = unixSeconds(now);
  const cached = await cachedAddress(db, config.tableName, cep, nowSeconds);
  if (cached) return { status: 200, body: { address: cached } };
  let found;
  try {
    found = await cepLookupFor(config).lookup(cep);
  } catch (err) {
    if (err instanceof CepUnavailableError) throw new UpstreamError('upstream_unavailable', 'The postal-code services are unavailable; try again later');
    throw err;
  }
  if (!found) throw new NotFoundError('CEP not found');
  return { status: 200, body: { address: found }, writes: [cacheWrite(config.tableName, found, nowSeconds)] };
});

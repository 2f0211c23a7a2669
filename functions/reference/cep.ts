import { searchCep } from '../../shared/app/reference/search-cep';
import { unixSeconds } from '../../shared/ports/clock';
import { normalizeCep } from '../../shared/domain/cep';
import { ValidationError } from '../../shared/domain/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { referenceRoutes as routes } from '../../shared/http/route-table/reference';
import { cepChanges, cepPorts } from '../../shared/wiring/reference';

/** GET /api/cep/search/{cep}: the address of a CEP, from the cache or the configured source. */
export const handler = httpHandler(
  routes.searchCep,
  async ({ params, runtime, now }) => {
    const cep = normalizeCep(params.cep);
    if (!cep) throw new ValidationError({ cep: ['Must be a CEP of 8 digits, e.g. 01310-100'] });
    const { answer, changes } = await searchCep(cepPorts(runtime), cep, unixSeconds(now));
    return { status: 200, body: { address: answer }, changes };
  },
  { changes: cepChanges },
);

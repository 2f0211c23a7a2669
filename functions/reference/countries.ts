import { httpHandler } from '../../shared/http/pipeline';
import { COUNTRIES } from '../../shared/domain/reference/countries';
import { referenceRoutes as routes } from '../../shared/http/route-table/reference';

/** GET /api/country/all: the ISO 3166-1 countries; `id` is what customer creation takes as country_id. */
export const handler = httpHandler(routes.listCountries, async () => ({ status: 200, body: { countries: COUNTRIES } }));

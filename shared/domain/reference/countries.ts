import type { Country } from './countries-source';
import { COUNTRIES } from './countries.generated';

export type { Country };
export { COUNTRIES };

/** Brazil's id in the country list (its ISO 3166-1 numeric code): fixed across releases. */
export const BRAZIL_COUNTRY_ID = 76;

const byId = new Map(COUNTRIES.map((c) => [c.id, c]));

export function countryById(id: number): Country | undefined {
  return byId.get(id);
}

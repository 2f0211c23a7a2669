import worldCountries from 'world-countries';

/** A country as the API gives it (spec 2.4). */
export type Country = {
  id: number;
  iso: string;
  name: string;
  nicename: string;
  iso3: string | null;
  numcode: number | null;
  phonecode: number | null;
};

type SourceCountry = { cca2: string; cca3: string; ccn3: string; name: { common: string }; idd: { root?: string; suffixes?: string[] } };

/** Countries without an ISO 3166-1 numeric code get a fixed id, documented in docs/decisions.md. */
export const IDS_WITHOUT_NUMERIC_CODE: Readonly<Record<string, number>> = { XK: 383 };

/**
 * Dialling codes that world-countries' root/suffix data does not give directly (a suffix that is a
 * number range, or several suffixes of one country): documented in docs/decisions.md.
 */
export const PHONE_CODE_OVERRIDES: Readonly<Record<string, number>> = { AX: 358, EH: 212, SH: 290, SJ: 47, VA: 39 };

/**
 * The international dialling code: root and suffix when there is one suffix (+5 and 5 → 55); the
 * root alone when there are several (the suffixes are then area codes: +1 and 201, 202…; +7 and
 * 3, 4, 5…); null when none.
 */
export function phoneCode(idd: SourceCountry['idd'], iso?: string): number | null {
  const override = iso === undefined ? undefined : PHONE_CODE_OVERRIDES[iso];
  if (override !== undefined) return override;
  const root = (idd.root ?? '').replace(/\D/g, '');
  if (!root) return null;
  const suffixes = idd.suffixes ?? [];
  if (suffixes.length === 1) return Number(`${root}${(suffixes[0] ?? '').replace(/\D/g, '')}`);
  return Number(root);
}

/**
 * Derives the country list from the world-countries package (ISO 3166-1). The id is the ISO numeric
 * code, stable across releases (Brazil is 76); the list is sorted by nicename.
 */
export function deriveCountries(source: readonly SourceCountry[] = worldCountries as readonly SourceCountry[]): Country[] {
  return source
    .map((c) => {
      const numcode = c.ccn3 ? Number(c.ccn3) : null;
      const id = numcode ?? IDS_WITHOUT_NUMERIC_CODE[c.cca2];
      if (id === undefined) throw new Error(`Country ${c.cca2} has no numeric code and no fixed id`);
      return {
        id,
        iso: c.cca2,
        name: c.name.common.toUpperCase(),
        nicename: c.name.common,
        iso3: c.cca3 || null,
        numcode,
        phonecode: phoneCode(c.idd, c.cca2),
      };
    })
    .sort((a, b) => a.nicename.localeCompare(b.nicename, 'en'));
}

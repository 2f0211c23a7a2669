import * as z from 'zod';

export const countrySchema = z
  .object({
    id: z.number().int(),
    iso: z.string(),
    name: z.string(),
    nicename: z.string(),
    iso3: z.string().nullable(),
    numcode: z.number().int().nullable(),
    phonecode: z.number().int().nullable(),
  })
  .meta({ id: 'Country', description: 'ISO 3166-1 country; id is the ISO numeric code (Brazil 76).' });

export const stateSchema = z
  .object({
    name: z.string(),
    uf: z.string(),
    ibge: z.number().int().describe('IBGE code of the federative unit'),
    ddd: z.string().describe('Telephone area codes, comma-separated (e.g. "11,12,13")'),
  })
  .meta({ id: 'State', description: 'A Brazilian federative unit (UF).' });

export const countryListSchema = z.object({ countries: z.array(countrySchema) }).meta({ id: 'CountryList' });
export const stateListSchema = z.object({ states: z.array(stateSchema) }).meta({ id: 'StateList' });

export const cepParamsSchema = z.object({ cep: z.string().max(64).describe('8 digits, with or without the hyphen') });

export const addressSchema = z
  .object({
    address: z.object({
      zipcode: z.string().describe('8 digits'),
      state: z.string().describe('UF code'),
      city: z.string(),
      district: z.string(),
      street: z.string(),
    }),
  })
  .meta({ id: 'CepAddress' });

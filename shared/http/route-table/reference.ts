/** The route table's rows for functions/reference/ (shared/http/routes.ts assembles the table). */
import { defineRoute, type AnyRoute } from '../route';
import { addressSchema, cepParamsSchema, countryListSchema, stateListSchema } from '../../domain/schemas/reference';
import { bearerRead } from './policies';

export const referenceRoutes = {
  listCountries: defineRoute({
    id: 'ListCountries',
    method: 'GET',
    path: '/api/country/all',
    handler: 'functions/reference/countries.ts',
    ...bearerRead,
    tag: 'Reference data',
    summary: 'Countries (ISO 3166-1); the id is what customer creation takes as country_id',
    request: {},
    responses: { 200: { description: 'Every country', schema: countryListSchema } },
  }),
  listStates: defineRoute({
    id: 'ListStates',
    method: 'GET',
    path: '/api/state/all',
    handler: 'functions/reference/states.ts',
    ...bearerRead,
    tag: 'Reference data',
    summary: 'The 27 Brazilian federative units (UF) with IBGE codes and area codes',
    request: {},
    responses: { 200: { description: 'Every UF', schema: stateListSchema } },
  }),
  searchCep: defineRoute({
    id: 'SearchCep',
    changes: ['cep.cached'],
    method: 'GET',
    path: '/api/cep/search/{cep}',
    handler: 'functions/reference/cep.ts',
    auth: 'bearer',
    rateLimit: 'cep',
    access: 'write',
    idempotency: 'none',
    tag: 'Reference data',
    summary: 'The address of a CEP (postal code), to prefill a customer',
    description:
      'Limited to 30 calls per minute per IP. A malformed CEP answers 422 (400 past 64 characters), an unknown one 404, and 503 when the postal-code services are down. Answers are cached for 30 days.',
    request: { params: cepParamsSchema },
    responses: {
      200: { description: 'The address', schema: addressSchema },
      404: { description: 'Unknown CEP' },
      503: {
        description:
          'The postal-code services are unavailable (code upstream_unavailable), or a transient conflict stopped the request (code temporary_conflict, with Retry-After)',
      },
    },
  }),
} satisfies Record<string, AnyRoute>;

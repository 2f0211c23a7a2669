/**
 * THE route table: the single source of truth read by the CDK stack (one Lambda and one API Gateway
 * route per row), the local HTTP server and the OpenAPI generator. Adding an endpoint = one row here
 * plus one handler file under functions/.
 */
import { defineRoute, type AnyRoute } from './http/route';
import { authTokenResponseSchema } from './schemas/auth';
import { balanceResponseSchema } from './schemas/balance';
import {
  createCustomerBodySchema,
  customerIdParamsSchema,
  customerListSchema,
  customerResponseSchema,
  listCustomersQuerySchema,
} from './schemas/customer';
import { addressSchema, cepParamsSchema, countryListSchema, stateListSchema } from './schemas/reference';

export const routes = {
  authToken: defineRoute({
    id: 'AuthToken',
    method: 'POST',
    path: '/api/auth',
    handler: 'functions/auth/token.ts',
    auth: 'basic',
    rateLimit: 'auth',
    access: 'read',
    idempotency: 'none',
    tag: 'Authentication',
    summary: 'Exchange the public and secret keys for a Bearer token',
    description: 'Send `Authorization: Basic base64(<public_key>:<secret_key>)` and no body. Limited to 10 calls per minute per IP.',
    request: {},
    responses: {
      200: { description: 'A Bearer token', schema: authTokenResponseSchema },
    },
  }),
  balance: defineRoute({
    id: 'GetBalance',
    method: 'GET',
    path: '/api/balance',
    handler: 'functions/account/balance.ts',
    auth: 'bearer',
    rateLimit: 'account',
    access: 'read',
    idempotency: 'none',
    tag: 'Account',
    summary: "The account's available balance",
    description: 'Not in the published reference: added so a merchant can see what a Pix withdrawal may spend (docs/decisions.md).',
    request: {},
    responses: {
      200: { description: 'The available balance', schema: balanceResponseSchema },
    },
  }),
  createCustomer: defineRoute({
    id: 'CreateCustomer',
    method: 'POST',
    path: '/api/customer',
    handler: 'functions/customers/create.ts',
    auth: 'bearer',
    rateLimit: 'account',
    access: 'write',
    idempotency: 'optional',
    retryOnIdClash: true,
    tag: 'Customers',
    summary: 'Register a customer (payer)',
    description:
      'A customer with a full address is required for boleto charges. The taxpayer document is validated (CPF or CNPJ check digits) and stored encrypted.',
    request: { body: createCustomerBodySchema },
    responses: { 200: { description: 'The customer', schema: customerResponseSchema } },
  }),
  getCustomer: defineRoute({
    id: 'GetCustomer',
    method: 'GET',
    path: '/api/customer/{id}',
    handler: 'functions/customers/get.ts',
    auth: 'bearer',
    rateLimit: 'account',
    access: 'read',
    idempotency: 'none',
    tag: 'Customers',
    summary: 'One customer by its numeric id',
    description: 'A non-numeric id answers 400; an unknown id, or one of another account, 404.',
    request: { params: customerIdParamsSchema },
    responses: { 200: { description: 'The customer', schema: customerResponseSchema } },
  }),
  listCustomers: defineRoute({
    id: 'ListCustomers',
    method: 'GET',
    path: '/api/customers',
    handler: 'functions/customers/list.ts',
    auth: 'bearer',
    rateLimit: 'account',
    access: 'read',
    idempotency: 'none',
    tag: 'Customers',
    summary: "The caller's customers, newest first",
    description: 'Filters match partially; name and email ignore case; document and phone numbers compare digits.',
    request: { query: listCustomersQuerySchema },
    responses: { 200: { description: 'A page of customers', schema: customerListSchema } },
  }),
  listCountries: defineRoute({
    id: 'ListCountries',
    method: 'GET',
    path: '/api/country/all',
    handler: 'functions/reference/countries.ts',
    auth: 'bearer',
    rateLimit: 'account',
    access: 'read',
    idempotency: 'none',
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
    auth: 'bearer',
    rateLimit: 'account',
    access: 'read',
    idempotency: 'none',
    tag: 'Reference data',
    summary: 'The 27 Brazilian federative units (UF) with IBGE codes and area codes',
    request: {},
    responses: { 200: { description: 'Every UF', schema: stateListSchema } },
  }),
  searchCep: defineRoute({
    id: 'SearchCep',
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
      'Limited to 30 calls per minute per IP. A malformed CEP answers 422, an unknown one 404, and 503 when the postal-code services are down. Answers are cached for 30 days.',
    request: { params: cepParamsSchema },
    responses: {
      200: { description: 'The address', schema: addressSchema },
      404: { description: 'Unknown CEP' },
      503: { description: 'The postal-code services are unavailable' },
    },
  }),
  openApiDocument: defineRoute({
    id: 'OpenApiDocument',
    method: 'GET',
    path: '/developers/openapi.yaml',
    handler: 'functions/meta/openapi.ts',
    auth: 'none',
    rateLimit: 'none',
    access: 'none',
    idempotency: 'none',
    tag: 'Meta',
    summary: 'This OpenAPI document',
    request: {},
    responses: {
      200: { description: 'The OpenAPI 3.1 document in YAML', contentType: 'application/yaml' },
    },
  }),
} satisfies Record<string, AnyRoute>;

export const routeList: readonly AnyRoute[] = Object.values(routes);

/** Answers every request no route matches: 404, or 405 on a known path with another method. */
export const fallbackHandler = 'functions/meta/not-found.ts';

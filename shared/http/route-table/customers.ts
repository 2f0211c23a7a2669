/** The route table's rows for functions/customers/ (shared/http/routes.ts assembles the table). */
import { defineRoute, type AnyRoute } from '../route';
import {
  createCustomerBodySchema,
  customerIdParamsSchema,
  customerListSchema,
  customerResponseSchema,
  listCustomersQuerySchema,
} from '../../domain/schemas/customer';
import { bearerRead, bearerWrite } from './policies';

export const customersRoutes = {
  createCustomer: defineRoute({
    id: 'CreateCustomer',
    changes: ['customer.created'],
    method: 'POST',
    path: '/api/customer',
    handler: 'functions/customers/create.ts',
    ...bearerWrite,
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
    ...bearerRead,
    tag: 'Customers',
    summary: 'One customer by its numeric id',
    description: 'A non-numeric id answers 400; an unknown id, or one of another account, 404.',
    request: { params: customerIdParamsSchema },
    responses: { 200: { description: 'The customer', schema: customerResponseSchema }, 404: { description: 'Unknown, or of another account' } },
  }),
  listCustomers: defineRoute({
    id: 'ListCustomers',
    method: 'GET',
    path: '/api/customers',
    handler: 'functions/customers/list.ts',
    ...bearerRead,
    tag: 'Customers',
    summary: "The caller's customers, newest first",
    description: 'Filters match partially; name and email ignore case; document and phone numbers compare digits.',
    request: { query: listCustomersQuerySchema },
    responses: { 200: { description: 'A page of customers', schema: customerListSchema } },
  }),
} satisfies Record<string, AnyRoute>;

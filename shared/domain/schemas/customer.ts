import * as z from 'zod';
import { countryById } from '../reference/countries';
import { stateByUf } from '../reference/states';
import { isValidDocument } from './documents';
import { countrySchema, stateSchema } from './reference';
import { singleLineText } from './text';

/** Free text: NFC, trimmed, no control, line-break or bidi-override characters, not only invisible ones (shared/domain/schemas/text.ts). */
const text = (max: number) => singleLineText(max);
const optionalText = (max: number) => text(max).optional();

const PHONE_MESSAGE = 'Must be a phone number of 8 to 20 digits';

/** A phone number: digits with the usual punctuation (+, spaces, hyphens, parentheses), 8 to 20 digits; empty means none. */
const phoneNumber = z
  .string()
  .max(40)
  .refine((text) => {
    const trimmed = text.trim();
    if (trimmed === '') return true;
    const digits = trimmed.replace(/\D/g, '').length;
    return trimmed.length <= 30 && /^\+?[0-9(][0-9()\-\s]*$/.test(trimmed) && digits >= 8 && digits <= 20;
  }, PHONE_MESSAGE);

/** Address fields: all required as soon as one is given (a boleto needs the full address). */
export const ADDRESS_FIELDS = ['zipcode', 'country_id', 'state', 'city', 'district', 'street', 'number'] as const;

export const createCustomerBodySchema = z
  .object({
    name: text(255).min(1),
    document: text(32).min(1).describe('CPF (11 digits) or CNPJ (14 characters); punctuation is ignored'),
    document_type: z.enum(['CPF', 'CNPJ']),
    email: z.email().max(255),
    zipcode: z
      .string()
      .regex(/^(\d{5}-?\d{3})?$/, 'Must be a CEP of 8 digits')
      .optional(),
    country_id: z.number().int().positive().optional().describe('An id from GET /api/country/all (Brazil is 76)'),
    state: optionalText(2).describe('A UF code from GET /api/state/all'),
    city: optionalText(255),
    district: optionalText(255),
    street: optionalText(255),
    number: optionalText(20),
    phone: phoneNumber.optional(),
    mobilephone: phoneNumber.optional(),
  })
  .superRefine((body, ctx) => {
    if (!isValidDocument(body.document, body.document_type)) {
      ctx.addIssue({ code: 'custom', path: ['document'], message: `Not a valid ${body.document_type}` });
    }
    if (body.country_id !== undefined && !countryById(body.country_id)) {
      ctx.addIssue({ code: 'custom', path: ['country_id'], message: 'Not a country id from GET /api/country/all' });
    }
    if (body.state !== undefined && body.state !== '' && !stateByUf(body.state)) {
      ctx.addIssue({ code: 'custom', path: ['state'], message: 'Not a UF code from GET /api/state/all' });
    }
    const given = ADDRESS_FIELDS.filter((field) => body[field] !== undefined && body[field] !== '');
    if (given.length > 0) {
      for (const field of ADDRESS_FIELDS) {
        if (!given.includes(field)) ctx.addIssue({ code: 'custom', path: [field], message: 'Required when an address is given' });
      }
    }
  })
  .meta({
    id: 'CreateCustomer',
    description:
      'name, document, document_type and email are required. The address fields (zipcode, country_id, state, city, district, street, number) are all required as soon as one is given; boleto charges need a customer with a full address.',
  });

export type CreateCustomerBody = z.output<typeof createCustomerBodySchema>;

export const customerSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    document: z.string(),
    document_type: z.enum(['CPF', 'CNPJ']),
    zipcode: z.string().nullable(),
    country: countrySchema.nullable(),
    state: stateSchema.nullable(),
    city: z.string().nullable(),
    district: z.string().nullable(),
    street: z.string().nullable(),
    number: z.string().nullable(),
    email: z.string(),
    phone: z.string().nullable(),
    mobilephone: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Customer' });

export const customerResponseSchema = z.object({ customer: customerSchema }).meta({ id: 'CustomerResponse' });

export const customerIdParamsSchema = z.object({ id: z.string().regex(/^\d{1,16}$/, 'Must be a numeric id') });

export { listCustomersQuerySchema } from './customer-query';

export const customerListSchema = z
  .object({ customers: z.array(customerSchema), pagination: z.object({ page: z.number().int(), limit: z.number().int() }) })
  .meta({ id: 'CustomerList' });

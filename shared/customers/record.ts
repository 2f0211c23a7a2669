import { seal } from '../crypto/personal-data';
import { countryById } from '../reference/countries';
import type { CreateCustomerBody } from '../schemas/customer';
import { normalizeDocument } from '../schemas/documents';
import type { Item } from '../adapters/dynamo/dynamo';
import { keys } from '../adapters/dynamo/keys';
import { type CustomerFields, customerFields, documentContext } from './fields';

/** The customer object of spec 2.4 (its keys in the order of the answer: the country after the zipcode). */
export type CustomerView = CustomerFields & { country: ReturnType<typeof countryById> | null };

const present = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());

/** The stored item of a new customer: the taxpayer document sealed, lower-case copies for searches. */
export function newCustomerItem(accountId: string, customerId: number, body: CreateCustomerBody, now: Date, personalDataKey: Buffer): Item {
  const zipcode = present(body.zipcode)?.replace('-', '');
  return {
    ...keys.customer(accountId, customerId),
    type: 'customer',
    accountId,
    customerId,
    name: body.name,
    documentSealed: seal(normalizeDocument(body.document), personalDataKey, documentContext(accountId, customerId)),
    documentType: body.document_type,
    email: body.email,
    zipcode,
    countryId: body.country_id,
    state: present(body.state)?.toUpperCase(),
    city: present(body.city),
    district: present(body.district),
    street: present(body.street),
    number: present(body.number),
    phone: present(body.phone),
    mobilephone: present(body.mobilephone),
    createdAt: now.toISOString(),
  };
}

/** The API's customer object (spec 2.4), with the country and state expanded. */
export function customerView(item: Item, personalDataKey: Buffer): CustomerView {
  const { id, name, document, document_type, zipcode, ...rest } = customerFields(item, personalDataKey);
  return { id, name, document, document_type, zipcode, country: typeof item.countryId === 'number' ? (countryById(item.countryId) ?? null) : null, ...rest };
}

export type CustomerFilters = { document?: string; name?: string; email?: string; phone?: string; mobilephone?: string };

const digits = (value: string) => value.replace(/\D/g, '');
const includesFolded = (value: string | null, wanted: string) => (value ?? '').toLocaleLowerCase('pt-BR').includes(wanted.toLocaleLowerCase('pt-BR'));
const includesDigits = (value: string | null, wanted: string) => digits(wanted) !== '' && digits(value ?? '').includes(digits(wanted));

/** The list filters: partial matches; name and email ignore case; document and phones compare digits. */
export function matchesFilters(customer: CustomerView, filters: CustomerFilters): boolean {
  if (filters.name !== undefined && !includesFolded(customer.name, filters.name)) return false;
  if (filters.email !== undefined && !includesFolded(customer.email, filters.email)) return false;
  if (filters.document !== undefined && !normalizeDocument(customer.document).includes(normalizeDocument(filters.document))) return false;
  if (filters.phone !== undefined && !includesDigits(customer.phone, filters.phone)) return false;
  if (filters.mobilephone !== undefined && !includesDigits(customer.mobilephone, filters.mobilephone)) return false;
  return true;
}

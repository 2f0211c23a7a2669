import { seal, unseal } from '../crypto/personal-data';
import { countryById } from '../reference/countries';
import { stateByUf, stateView } from '../reference/states';
import type { CreateCustomerBody } from '../schemas/customer';
import { normalizeDocument } from '../schemas/documents';
import type { Item } from '../storage/dynamo';
import { keys } from '../storage/keys';

export type CustomerView = {
  id: number;
  name: string;
  document: string;
  document_type: 'CPF' | 'CNPJ';
  zipcode: string | null;
  country: ReturnType<typeof countryById> | null;
  state: ReturnType<typeof stateView> | null;
  city: string | null;
  district: string | null;
  street: string | null;
  number: string | null;
  email: string;
  phone: string | null;
  mobilephone: string | null;
  created_at: string;
};

/** What a sealed document is bound to: its account and customer, so it cannot be moved to another item. */
function documentContext(accountId: string, customerId: number): string {
  return `customer:${accountId}:${customerId}`;
}

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

const orNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The API's customer object (spec 2.4), with the country and state expanded. */
export function customerView(item: Item, personalDataKey: Buffer): CustomerView {
  const accountId = String(item.accountId);
  const customerId = Number(item.customerId);
  const state = typeof item.state === 'string' ? stateByUf(item.state) : undefined;
  return {
    id: customerId,
    name: String(item.name),
    document: unseal(String(item.documentSealed), personalDataKey, documentContext(accountId, customerId)),
    document_type: item.documentType === 'CNPJ' ? 'CNPJ' : 'CPF',
    zipcode: orNull(item.zipcode),
    country: typeof item.countryId === 'number' ? (countryById(item.countryId) ?? null) : null,
    state: state ? stateView(state) : null,
    city: orNull(item.city),
    district: orNull(item.district),
    street: orNull(item.street),
    number: orNull(item.number),
    email: String(item.email),
    phone: orNull(item.phone),
    mobilephone: orNull(item.mobilephone),
    created_at: String(item.createdAt),
  };
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

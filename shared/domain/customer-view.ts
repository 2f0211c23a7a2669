import type { Customer } from './customer';
import { countryById } from './reference/countries';
import { normalizeDocument } from './schemas/documents';
import { type CustomerFields, customerFields } from './customer-fields';

/** The customer object of spec 2.4 (its keys in the order of the answer: the country after the zipcode). */
export type CustomerView = CustomerFields & { country: ReturnType<typeof countryById> | null };

/** The API's customer object (spec 2.4), with the country and state expanded. */
export function customerView(customer: Customer): CustomerView {
  const { id, name, document, document_type, zipcode, ...rest } = customerFields(customer);
  return { id, name, document, document_type, zipcode, country: customer.countryId !== undefined ? (countryById(customer.countryId) ?? null) : null, ...rest };
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

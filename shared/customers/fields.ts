/**
 * A stored customer's fields as the API names them, without the country: apart from record.ts (which
 * expands the country from the 250-country list) so that the boleto charge, which reads the payer and
 * the address only, does not bundle the list.
 */
import { unseal } from '../crypto/personal-data';
import { stateByUf, stateView } from '../reference/states';
import type { Item } from '../adapters/dynamo/dynamo';

export type CustomerFields = {
  id: number;
  name: string;
  document: string;
  document_type: 'CPF' | 'CNPJ';
  zipcode: string | null;
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
export function documentContext(accountId: string, customerId: number): string {
  return `customer:${accountId}:${customerId}`;
}

const orNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The customer object of spec 2.4 but its country (shared/customers/record.ts, customerView, adds it), the state expanded. */
export function customerFields(item: Item, personalDataKey: Buffer): CustomerFields {
  const accountId = String(item.accountId);
  const customerId = Number(item.customerId);
  const state = typeof item.state === 'string' ? stateByUf(item.state) : undefined;
  return {
    id: customerId,
    name: String(item.name),
    document: unseal(String(item.documentSealed), personalDataKey, documentContext(accountId, customerId)),
    document_type: item.documentType === 'CNPJ' ? 'CNPJ' : 'CPF',
    zipcode: orNull(item.zipcode),
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

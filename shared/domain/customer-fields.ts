/**
 * A customer's fields as the API names them, without the country: apart from record.ts (which expands
 * the country from the 250-country list) so that the boleto charge, which reads the payer and the
 * address only, does not bundle the list.
 */
import type { Customer } from './customer';
import { stateByUf, stateView } from './reference/states';

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

/** The customer object of spec 2.4 but its country (shared/domain/customer-view.ts, customerView, adds it), the state expanded. */
export function customerFields(customer: Customer): CustomerFields {
  const state = customer.state !== undefined ? stateByUf(customer.state) : undefined;
  return {
    id: customer.id,
    name: customer.name,
    document: customer.document,
    document_type: customer.documentType,
    zipcode: customer.zipcode ?? null,
    state: state ? stateView(state) : null,
    city: customer.city ?? null,
    district: customer.district ?? null,
    street: customer.street ?? null,
    number: customer.number ?? null,
    email: customer.email,
    phone: customer.phone ?? null,
    mobilephone: customer.mobilephone ?? null,
    created_at: customer.createdAt,
  };
}

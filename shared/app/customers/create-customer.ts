import type { Change } from '../../domain/changes';
import type { Customer } from '../../domain/customer';
import type { CreateCustomerBody } from '../../domain/schemas/customer';
import { normalizeDocument } from '../../domain/schemas/documents';
import { definedOnly } from '../../domain/defined';

const present = (value: string | undefined): string | undefined => (value === undefined || value.trim() === '' ? undefined : value.trim());

/** A new customer from the API's body: the document normalized, the zipcode as 8 digits, the UF in upper case, blanks dropped. */
export function newCustomer(accountId: string, id: number, body: CreateCustomerBody, now: Date): Customer {
  const optional = {
    zipcode: present(body.zipcode)?.replace('-', ''),
    countryId: body.country_id,
    state: present(body.state)?.toUpperCase(),
    city: present(body.city),
    district: present(body.district),
    street: present(body.street),
    number: present(body.number),
    phone: present(body.phone),
    mobilephone: present(body.mobilephone),
  };
  return {
    id,
    accountId,
    name: body.name,
    document: normalizeDocument(body.document),
    documentType: body.document_type,
    email: body.email,
    ...definedOnly(optional),
    createdAt: now.toISOString(),
  };
}

/** POST /api/customer: registers a payer under a fresh numeric id (a taken id: the route draws again). */
export function createCustomer(request: { accountId: string; id: number; body: CreateCustomerBody; now: Date }): { answer: Customer; changes: Change[] } {
  const customer = newCustomer(request.accountId, request.id, request.body, request.now);
  return { answer: customer, changes: [{ kind: 'customer.created', customer }] };
}

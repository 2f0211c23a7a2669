import { actingPerson } from './acting';
import type { PanelAccessPorts } from './access-ports';
import { listCustomers } from '../customers/list-customers';
import { type CustomerFilters, customerView } from '../../domain/customer-view';
import { NotFoundError } from '../../domain/errors';
import { PAYMENT_METHODS, type PaymentMethod } from '../../domain/payment-methods';
import type { PanelSession } from '../../domain/panel/session';
import type { CustomerStore } from '../../ports/customers';

export type AccountPagesPorts = Pick<PanelAccessPorts, 'people' | 'sessions' | 'tokens'> & {
  customers: CustomerStore;
  /** The payment methods the operator enabled for the account. */
  methodsOf: (accountId: string) => Promise<readonly PaymentMethod[]>;
};

/** The customers page: GET /api/customers' own use case, for the session's account (every role reads). */
export async function customersView(ports: AccountPagesPorts, session: PanelSession, query: { page: number; limit: number; filters: CustomerFilters }) {
  await actingPerson(ports, session, 'read');
  return listCustomers(ports, { accountId: session.accountId, ...query });
}

/** The payment methods page: each method and whether the operator enabled it (enabling stays with the operator). */
export async function methodsView(ports: AccountPagesPorts, session: PanelSession): Promise<{ method: PaymentMethod; enabled: boolean }[]> {
  await actingPerson(ports, session, 'read');
  const enabled = await ports.methodsOf(session.accountId);
  return PAYMENT_METHODS.map((method) => ({ method, enabled: enabled.includes(method) }));
}

/** One customer of the session's account, as GET /api/customer/{id} reads it; unknown or another account's: 404. */
export async function customerDetail(ports: AccountPagesPorts, session: PanelSession, id: number) {
  await actingPerson(ports, session, 'read');
  const customer = Number.isSafeInteger(id) && id > 0 ? await ports.customers.get(session.accountId, id) : undefined;
  if (!customer) throw new NotFoundError('Cliente não encontrado.');
  return customerView(customer);
}

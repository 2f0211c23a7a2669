import type { Customer } from '../../domain/customer';
import type { CustomerStore } from '../../ports/customers';
import { type CustomerFilters, matchesFilters } from '../../domain/customer-view';
import { customerView } from '../../domain/customer-view';

/**
 * GET /api/customers: the account's customers, newest first, filtered and paged. Filters match parts of
 * the document, which is stored sealed: they run on the customers as read, page by page.
 */
export async function listCustomers(
  ports: { customers: CustomerStore },
  request: { accountId: string; page: number; limit: number; filters: CustomerFilters },
) {
  const keep = (customer: Customer) => matchesFilters(customerView(customer), request.filters);
  return (await ports.customers.list(request.accountId, { page: request.page, limit: request.limit }, keep)).map(customerView);
}

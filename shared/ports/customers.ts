import type { Customer } from '../domain/customer';

/** At most this many customers are read to answer one list call (filters apply after decryption). */
export const MAX_SCANNED = 10_000;

/** The customers as stored (shared/adapters/dynamo/customers.ts). */
export interface CustomerStore {
  /** One of the account's customers (strongly consistent), or undefined. */
  get(accountId: string, id: number): Promise<Customer | undefined>;
  /** The account's customers newest first, kept by `keep` (filters run after the documents are unsealed), one page. */
  list(accountId: string, page: { page: number; limit: number }, keep: (customer: Customer) => boolean): Promise<Customer[]>;
}

import type { Checkout } from '../domain/checkout';

/** The hosted checkouts as stored (shared/adapters/dynamo/checkout-lookup.ts). */
export interface CheckoutStore {
  /** One checkout by its reference (strongly consistent), or undefined. */
  get(reference: string): Promise<Checkout | undefined>;
}

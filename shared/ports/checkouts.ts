import type { CheckoutAccount } from '../domain/account';
import type { CheckoutReservation } from '../domain/changes';
import type { Checkout } from '../domain/checkout';

/** The hosted checkouts as stored (shared/adapters/dynamo/checkout-lookup.ts). */
export interface CheckoutStore {
  /** One checkout by its reference (strongly consistent), or undefined. */
  get(reference: string): Promise<Checkout | undefined>;
  /** The account's checkout holding this reservation of a tx_ref (the tx_ref's, or one sale's), or undefined. */
  ofReservation(accountId: string, txRef: string, reservation: CheckoutReservation): Promise<Checkout | undefined>;
}

/** The upkeep's index of open checkouts: PENDING ones by creation time, UNKNOWN ones apart (shared/adapters/dynamo/checkout-lookup.ts). */
export interface OpenCheckoutIndex {
  readonly openPartitions: readonly string[];
  readonly unknownPartitions: readonly string[];
  /** References of one partition's checkouts (created before `before`, when given), at most `limit`; the index lags the checkouts. */
  references(partition: string, limit: number, before?: string): Promise<string[]>;
}

/** The merchant accounts as the hosted checkout finds them (shared/adapters/dynamo/account-record.ts). */
export interface AccountDirectory {
  /** The account a public key was issued to (strongly consistent), or undefined. */
  byPublicKey(publicKey: string): Promise<CheckoutAccount | undefined>;
  /** One account's settings (strongly consistent), or undefined. */
  get(accountId: string): Promise<CheckoutAccount | undefined>;
}

import { randomInt } from 'node:crypto';
import type { NewCheckout } from '../../domain/checkout';
import type { CheckoutStatus } from '../../domain/checkout-transitions';
import type { Item } from './dynamo';
import { keys } from './keys';

/**
 * The upkeep's index of open checkouts (GSI2, sparse, beside the sweep's SWEEP# partitions): a PENDING
 * checkout sits in CHKOPEN#n sorted by creation time (the TTL sweep reads what is older than the TTL);
 * an UNKNOWN one in CHKUNK#n (every one is asked about at each run). PAID and ABANDONED leave the index.
 */
export const OPEN_SHARDS = 4;
export const openPartitions = (kind: 'open' | 'unknown'): string[] =>
  Array.from({ length: OPEN_SHARDS }, (_, shard) => `${kind === 'open' ? 'CHKOPEN' : 'CHKUNK'}#${shard}`);

export function openIndexAttributes(kind: 'open' | 'unknown', createdAt: string, reference: string): { GSI2PK: string; GSI2SK: string } {
  return { GSI2PK: `${kind === 'open' ? 'CHKOPEN' : 'CHKUNK'}#${randomInt(OPEN_SHARDS)}`, GSI2SK: `${createdAt}#${reference}` };
}

export function checkoutItem(checkout: NewCheckout): Item {
  return {
    ...keys.checkout(checkout.reference),
    type: 'checkout',
    ...checkout,
    status: 'PENDING' satisfies CheckoutStatus,
    paymentType: null,
    cardAttempt: 0,
    ...openIndexAttributes('open', checkout.createdAt, checkout.reference),
  };
}

/** The tx_ref's reservation in its account: its conditional put makes one checkout per (account, tx_ref). */
export function checkoutTxRefItem(accountId: string, txRef: string, reference: string, createdAt: string): Item {
  return { ...keys.checkoutTxRef(accountId, txRef), type: 'checkoutTxRef', accountId, txRef, reference, createdAt };
}

/** A sale's reservation under its tx_ref: its conditional put makes one checkout per (account, tx_ref, sale). */
export function checkoutSaleItem(accountId: string, txRef: string, sale: string, reference: string, createdAt: string): Item {
  return { ...keys.checkoutSale(accountId, txRef, sale), type: 'checkoutTxRef', accountId, txRef, reference, createdAt };
}

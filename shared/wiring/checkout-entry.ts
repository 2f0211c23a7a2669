import type { ChangeCompilers } from '../adapters/dynamo/changes';
import { dynamoAccountDirectory, dynamoCheckouts } from '../adapters/dynamo/checkout-lookup';
import { checkoutCompilers } from '../adapters/dynamo/checkout-settle';
import { invoiceCompilers } from '../adapters/dynamo/invoices';
import type { OpenCheckoutPorts } from '../app/checkout/open-checkout';
import type { Runtime } from '../runtime';
import { pixChargePorts } from './charges';

/** The changes of the entry form: the checkout with its reservation, and its Pix invoice. */
export const checkoutEntryChanges: ChangeCompilers = { ...checkoutCompilers, ...invoiceCompilers };

/** What the entry form needs: the accounts by public key, the checkouts by reservation, the Pix charge, the checkout's lifetime. */
export function openCheckoutPorts(runtime: Runtime): OpenCheckoutPorts {
  const { db } = runtime;
  const table = runtime.config.tableName;
  return {
    accounts: dynamoAccountDirectory(db, table),
    checkouts: dynamoCheckouts(db, table),
    pix: pixChargePorts(runtime),
    ttlSeconds: runtime.config.checkout.ttlSeconds,
  };
}

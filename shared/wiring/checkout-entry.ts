import { type ChangeCompilers, mergeCompilers } from '../adapters/dynamo/changes';
import { dynamoAccountDirectory } from '../adapters/dynamo/account-directory';
import { dynamoCheckouts } from '../adapters/dynamo/checkout-lookup';
import { checkoutCreatedCompilers } from '../adapters/dynamo/checkout-settle';
import { invoiceCreatedCompilers } from '../adapters/dynamo/invoices';
import type { OpenCheckoutPorts } from '../app/checkout/open-checkout';
import type { Runtime } from './runtime';
import { pixChargePorts } from './charges';

/** The changes of the entry form: the checkout with its reservation, and its Pix invoice. */
export const checkoutEntryChanges: ChangeCompilers = /* @__PURE__ */ mergeCompilers(checkoutCreatedCompilers, invoiceCreatedCompilers);

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

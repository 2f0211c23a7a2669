import { dynamoPixSweep } from '../adapters/dynamo/invoices';
import { dynamoPixStatementCursors } from '../adapters/dynamo/pix-statement-cursor';
import type { PixSweepPorts } from '../app/invoices/pix-sweep';
import type { PixLookupPorts } from '../app/invoices/reconcile-pix-invoice';
import { pixProviderOf } from '../domain/invoice';
import { listsReceivedPix, type LookingUpPixProvider, looksUpCharges } from '../ports/payment-provider';
import { pixProvider } from './provider-registry';
import type { ChangeScope } from '../domain/changes';
import type { Runtime } from './runtime';
import { invoiceMovePorts } from './invoice-moves';

export { invoiceMoveChanges, invoiceMovePorts } from './invoice-moves';

/** What reading a Pix charge back from its PSP needs: the invoice-move ports and the provider's time limit. */
export function pixLookupPorts(runtime: Runtime, scope: ChangeScope): PixLookupPorts {
  return { ...invoiceMovePorts(runtime, scope), timeoutMs: runtime.config.payments.timeoutMs };
}

/** A provider that cannot read a charge back (the simulated one): nothing to reconcile with. */
export class NoLookupError extends Error {
  constructor(provider: string) {
    super(`The provider ${provider} cannot look up Pix charges`);
    this.name = 'NoLookupError';
  }
}

/** What the Pix sweep needs: its index, each invoice's PSP (which must read charges back), its wait and the wall clock. */
export function pixSweepPorts(runtime: Runtime, scope: ChangeScope): PixSweepPorts {
  const providerOf = (invoice: Parameters<PixSweepPorts['providerOf']>[0]): LookingUpPixProvider => {
    const provider = pixProvider(runtime.config, pixProviderOf(invoice, runtime.config.payments.provider));
    if (!looksUpCharges(provider)) throw new NoLookupError(provider.name);
    return provider;
  };
  // The configured PSP's statement of Pix received, when it lists them (API Pix): checked against the ledger.
  const configured = pixProvider(runtime.config);
  return {
    ...pixLookupPorts(runtime, scope),
    index: dynamoPixSweep(runtime.db, runtime.config.tableName),
    providerOf,
    afterMinutes: runtime.config.apiPix?.sweepAfterMinutes ?? 30,
    nowMs: () => Date.now(),
    ...(listsReceivedPix(configured) ? { statement: { provider: configured, cursors: dynamoPixStatementCursors(runtime.db, runtime.config.tableName) } } : {}),
  };
}

import { dynamoRailUpkeep } from '../adapters/dynamo/invoices';
import { type InvoiceMovePorts } from '../app/invoices/apply-notification';
import { keepRails, type RailClosing, type RailUpkeepPorts } from '../app/invoices/rail-upkeep';
import { reconcilePixInvoice } from '../app/invoices/reconcile-pix-invoice';
import type { BolePixRail } from '../domain/bolepix';
import type { ChangeScope } from '../domain/changes';
import { type Invoice, invoiceProvider, pixProviderOf } from '../domain/invoice';
import { logger } from '../platform/logger';
import { paymentProvider, pixProvider } from './provider-registry';
import type { Runtime } from './runtime';
import { invoiceMovePorts } from './invoices';

/** Closes one rail at its provider: the Pix half's due-date charge removed, the boleto written off (each idempotent). */
async function closeRail(runtime: Runtime, invoice: Invoice, rail: BolePixRail): Promise<RailClosing> {
  const configured = runtime.config.payments.provider;
  if (rail === 'pix') {
    const provider = pixProvider(runtime.config, pixProviderOf(invoice, configured));
    if (!provider.dueCharges || !invoice.pix) return 'unknown';
    const found = await provider.dueCharges.remove(invoice.pix.txid);
    return found === 'removed' ? 'closed' : found;
  }
  const found = await paymentProvider(runtime.config, invoiceProvider(invoice, runtime.config.payments.cardAndBoletoProvider)).writeOffBoleto(
    invoice.reference,
  );
  return found === 'written_off' ? 'closed' : found;
}

/** What keeping an invoice's rails needs, over the runtime: its moves (without the after-move hook: the upkeep closes itself), its providers, its index. */
export function railUpkeepPorts(runtime: Runtime, scope: ChangeScope): RailUpkeepPorts {
  const moves: InvoiceMovePorts = { ...invoiceMovePorts(runtime, scope), railsMoved: undefined };
  const ports: RailUpkeepPorts = {
    ...moves,
    closeRail: (invoice, rail) => closeRail(runtime, invoice, rail),
    async reconcilePixHalf(invoice, now) {
      const provider = pixProvider(runtime.config, pixProviderOf(invoice, runtime.config.payments.provider));
      if (provider.dueCharges?.lookup) await reconcilePixInvoice(ports, invoice, provider, now);
    },
    timeoutMs: runtime.config.payments.timeoutMs,
    index: dynamoRailUpkeep(runtime.db, runtime.config.tableName),
    nowMs: () => Date.now(),
  };
  return ports;
}

/**
 * The after-move hook of a route or worker moving invoices (InvoiceMovePorts.railsMoved): closes a
 * BolePix's rails left open right after its move, best effort (the rails upkeep retries what fails).
 */
export function closingRails(runtime: Runtime, scope: ChangeScope): NonNullable<InvoiceMovePorts['railsMoved']> {
  return async (reference, now) => {
    try {
      await keepRails(railUpkeepPorts(runtime, scope), reference, now);
    } catch (err) {
      logger.warn('rails not closed after the move; the rails upkeep will', { reference, error: (err as Error).name });
    }
  };
}

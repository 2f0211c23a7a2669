import type { CancelInvoicePorts, RailWithdrawal } from '../app/invoices/cancel-invoice';
import type { ChangeScope } from '../domain/changes';
import { type Invoice, invoiceProvider, pixProviderOf } from '../domain/invoice';
import type { CancelRail } from '../domain/invoice-cancel';
import { ProviderError } from '../ports/payment-provider';
import { invoiceMovePorts } from './invoice-moves';
import { invoiceReader } from './lookups';
import { paymentProvider, pixProvider } from './provider-registry';
import type { Runtime } from './runtime';

/** Withdraws one rail of an invoice at the provider that holds it: its Pix charge removed (cob or cobv), its boleto written off. */
async function withdrawRail(runtime: Runtime, invoice: Invoice, rail: CancelRail): Promise<RailWithdrawal> {
  const { provider: configured, cardAndBoletoProvider } = runtime.config.payments;
  if (rail === 'boleto') {
    const found = await paymentProvider(runtime.config, invoiceProvider(invoice, cardAndBoletoProvider)).writeOffBoleto(invoice.reference);
    return found === 'written_off' ? 'removed' : found;
  }
  const provider = pixProvider(runtime.config, pixProviderOf(invoice, configured));
  if (!invoice.pix) return 'unknown';
  const remove = rail === 'pix_charge' ? provider.removePixCharge?.bind(provider) : provider.dueCharges?.remove.bind(provider.dueCharges);
  if (!remove) throw new ProviderError(`The payment provider ${provider.name} cannot withdraw a Pix charge`);
  return remove(invoice.pix.txid);
}

/** What a merchant's cancellation needs: the invoice by numeric id, the move's ports, the rails' providers and their time limit. */
export function cancelInvoicePorts(runtime: Runtime, scope: ChangeScope): CancelInvoicePorts {
  const moves = invoiceMovePorts(runtime, scope);
  return {
    invoices: invoiceReader(runtime),
    checkouts: moves.checkouts,
    newEvent: moves.newEvent,
    withdrawRail: (invoice, rail) => withdrawRail(runtime, invoice, rail),
    timeoutMs: runtime.config.payments.timeoutMs,
  };
}

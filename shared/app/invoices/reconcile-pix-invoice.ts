import { brazilDayBounds } from '../../domain/brazil-dates';
import type { Invoice } from '../../domain/invoice';
import { expectedPayment, isBolePix } from '../../domain/bolepix';
import { brazilDate } from '../../domain/brazil-dates';
import { type PixAnomaly, pixOutcomes } from '../../domain/pix-outcomes';
import { logger } from '../../platform/logger';
import { BUSINESS_METRICS, countMetric } from '../../platform/metrics';
import { type LookingUpPixProvider, type PixChargeState, type PixProvider, ProviderError } from '../../ports/payment-provider';
import { withProviderTimeout } from '../time-limits';
import { applyNotification, type InvoiceMovePorts, STATUS_AFTER } from './apply-notification';

/** What one reconciliation of a Pix invoice did (the CLI prints it; the callback and the sweep count it). */
export type PixReconciliation = {
  txid: string;
  reference: string;
  provider: string;
  /** The charge's status at the PSP, or UNKNOWN when the PSP does not know the txid. */
  pspStatus: PixChargeState['status'] | 'UNKNOWN';
  statusBefore: string;
  statusAfter: string;
  /** The moves this call made (a move already made is not listed). */
  applied: Array<'paid' | 'refunded' | 'canceled'>;
  anomalies: PixAnomaly[];
};

export type PixLookupPorts = InvoiceMovePorts & { timeoutMs: number };

/**
 * Reads a Pix invoice's charge back from its PSP and applies what the PSP holds: the payment (when its
 * amount is the invoice total), a full refund, or the removal of an unpaid charge, each through the
 * one notification transaction (conditional on the invoice's status: moves already made change
 * nothing). Anomalies (another amount, a partial refund) are logged as errors and counted
 * (PixAnomalies, alarmed), never credited. A PSP failure is a ProviderError (nothing more applied).
 */
export async function reconcilePixInvoice(
  ports: PixLookupPorts,
  invoice: Invoice,
  provider: LookingUpPixProvider | PixProvider,
  now: Date,
): Promise<PixReconciliation> {
  const txid = invoice.pix?.txid ?? '';
  const { reference } = invoice;
  // A BolePix's Pix half is a due-date charge (API Pix /cobv): read back where it lives.
  const lookup = isBolePix(invoice) ? provider.dueCharges?.lookup?.bind(provider.dueCharges) : provider.lookupPixCharge?.bind(provider);
  if (!lookup) throw new ProviderError(`The provider ${provider.name} cannot read this charge back`);
  const state = await withProviderTimeout(lookup(txid), ports.timeoutMs);
  const result: PixReconciliation = {
    txid,
    reference,
    provider: provider.name,
    pspStatus: state?.status ?? 'UNKNOWN',
    statusBefore: invoice.status,
    statusAfter: invoice.status,
    applied: [],
    anomalies: [],
  };
  if (!state) {
    logger.error('the PSP does not know a Pix charge the gateway recorded', { reference, provider: provider.name });
    return result;
  }
  const expected = (paidAt: Date) => {
    const due = expectedPayment(invoice, brazilDate(paidAt));
    return due.payable ? due.dueCents : undefined;
  };
  const { moves, anomalies } = pixOutcomes(state, invoice.late ? expected : invoice.totalCents, now);
  result.anomalies = anomalies;
  for (const anomaly of anomalies) {
    logger.error('Pix anomaly: not credited', { reference, provider: provider.name, ...anomaly });
    countMetric(BUSINESS_METRICS.pixAnomalies);
  }
  for (const move of moves) {
    const id = `${provider.name}:${'endToEndId' in move ? move.endToEndId : txid}:${move.kind}`;
    const amount = move.kind === 'paid' ? { amountCents: move.amountCents } : {};
    if (await applyNotification(ports, { id, kind: move.kind, target: { txid }, occurredAt: move.occurredAt, ...amount }, now)) result.applied.push(move.kind);
  }
  // The moves are applied in order, each conditional on the status before it: the last one made is where the invoice stands.
  const last = result.applied.at(-1);
  if (last) result.statusAfter = STATUS_AFTER[last];
  return result;
}

/** How long after its due date (Brazil's end of day) a charge the PSP still calls ACTIVE stops being swept. */
const SWEEP_GRACE_MS = 24 * 60 * 60 * 1000;

/** Whether a PENDING charge still waiting in the Pix sweep is a day past its due date: the sweep gives up on it. */
export function sweepGivesUp(invoice: Invoice, now: Date): boolean {
  return invoice.awaitsPixLookup === true && invoice.status === 'PENDING' && now.getTime() >= brazilDayBounds(invoice.dueDate).endMs + SWEEP_GRACE_MS;
}

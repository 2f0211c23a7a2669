import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { brazilDayBounds } from '../dates';
import { logger } from '../logger';
import { BUSINESS_METRICS, countMetric } from '../metrics/emf';
import { type LookingUpPixProvider, looksUpCharges, type PixChargeState, withProviderTimeout } from '../providers/port';
import { pixProvider } from '../providers/registry';
import type { Runtime } from '../runtime';
import { type Item, isConditionalCheckFailed } from '../adapters/dynamo/dynamo';
import { keys } from '../adapters/dynamo/keys';
import { applyNotification, STATUS_AFTER } from '../app/invoices/apply-notification';
import { invoiceMovePorts } from '../wiring/invoices';
import { type PixAnomaly, pixOutcomes } from './pix-outcomes';
import { inPixSweep } from './pix-sweep-index';
import { invoiceProvider } from '../domain/invoice';

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

/** A provider that cannot read a charge back (the simulated one): nothing to reconcile with. */
export class NoLookupError extends Error {
  constructor(provider: string) {
    super(`The provider ${provider} cannot look up Pix charges`);
    this.name = 'NoLookupError';
  }
}

/** The invoice's Pix provider, which must be able to read charges back. */
function lookingUpProvider(runtime: Runtime, item: Item): LookingUpPixProvider {
  const provider = pixProvider(runtime.config, invoiceProvider(item, runtime.config.payments.provider));
  if (!looksUpCharges(provider)) throw new NoLookupError(provider.name);
  return provider;
}

/**
 * Reads a Pix invoice's charge back from its PSP and applies what the PSP holds: the payment (when its
 * amount is the invoice total), a full refund, or the removal of an unpaid charge, each through the
 * one notification transaction (conditional on the invoice's status: moves already made change
 * nothing). Anomalies (another amount, a partial refund) are logged as errors and counted
 * (PixAnomalies, alarmed), never credited. A PSP failure is a ProviderError (nothing more applied).
 */
export async function reconcilePixInvoice(
  runtime: Runtime,
  item: Item,
  now: Date,
  provider: LookingUpPixProvider = lookingUpProvider(runtime, item),
): Promise<PixReconciliation> {
  const txid = String((item.pix as { txid?: unknown } | undefined)?.txid ?? '');
  const reference = String(item.reference);
  const state = await withProviderTimeout(provider.lookupPixCharge(txid), runtime.config.payments.timeoutMs);
  const result: PixReconciliation = {
    txid,
    reference,
    provider: provider.name,
    pspStatus: state?.status ?? 'UNKNOWN',
    statusBefore: String(item.status),
    statusAfter: String(item.status),
    applied: [],
    anomalies: [],
  };
  if (!state) {
    logger.error('the PSP does not know a Pix charge the gateway recorded', { reference, provider: provider.name });
    return result;
  }
  const { moves, anomalies } = pixOutcomes(state, Number(item.totalCents), now);
  result.anomalies = anomalies;
  for (const anomaly of anomalies) {
    logger.error('Pix anomaly: not credited', { reference, provider: provider.name, ...anomaly });
    countMetric(BUSINESS_METRICS.pixAnomalies);
  }
  const ports = invoiceMovePorts(runtime);
  for (const move of moves) {
    const id = `${provider.name}:${'endToEndId' in move ? move.endToEndId : txid}:${move.kind}`;
    if (await applyNotification(ports, { id, kind: move.kind, target: { txid }, occurredAt: move.occurredAt }, now)) result.applied.push(move.kind);
  }
  // The moves are applied in order, each conditional on the status before it: the last one made is where the invoice stands.
  const last = result.applied.at(-1);
  if (last) result.statusAfter = STATUS_AFTER[last];
  return result;
}

/** How long after its due date (Brazil's end of day) a charge the PSP still calls ACTIVE stops being swept. */
const SWEEP_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Takes a still-PENDING invoice out of the Pix sweep's index once its charge is a day past its due
 * date (conditional: only while PENDING and still indexed). Returns whether it did.
 */
export async function retireFromPixSweep(runtime: Runtime, item: Item, now: Date): Promise<boolean> {
  if (!inPixSweep(item) || item.status !== 'PENDING') return false;
  if (now.getTime() < brazilDayBounds(String(item.dueDate)).endMs + SWEEP_GRACE_MS) return false;
  try {
    await runtime.db.send(
      new UpdateCommand({
        TableName: runtime.config.tableName,
        Key: keys.invoice(String(item.reference)),
        UpdateExpression: 'REMOVE GSI2PK, GSI2SK',
        ConditionExpression: '#status = :pending AND attribute_exists(GSI2PK)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':pending': 'PENDING' },
      }),
    );
  } catch (err) {
    if (isConditionalCheckFailed(err)) return false;
    throw err;
  }
  logger.warn('Pix charge no longer swept: unpaid a day after its due date', { reference: item.reference });
  return true;
}

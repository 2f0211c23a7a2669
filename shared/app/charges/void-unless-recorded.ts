import { logger } from '../../platform/logger';
import type { InvoiceStore } from '../../ports/invoices';
import type { PaymentProvider } from '../../ports/payment-provider';
import { withProviderTimeout } from '../time-limits';

export type VoidPorts = {
  invoices: Pick<InvoiceStore, 'byReference'>;
  provider: PaymentProvider;
  timeoutMs: number;
  /** The time left for a request's clean-up (issue 44): a void after a failed commit fits it; undefined outside a request. */
  cleanupLeftMs?: () => number | undefined;
};

/**
 * Voids an approved card authorization only when its invoice is not recorded (re-read: a commit's
 * outcome may have been unknown) and `recordedElsewhere` does not find it under another invoice (a
 * checkout's concurrent attempt sharing the provider's idempotency key may have recorded it).
 */
export async function voidUnlessRecorded(
  ports: VoidPorts,
  reference: string,
  transactionId: string,
  recordedElsewhere: () => Promise<boolean> = async () => false,
): Promise<void> {
  if ((await ports.invoices.byReference(reference)) || (await recordedElsewhere())) {
    logger.warn('card authorization kept: it was recorded after all', { reference });
    return;
  }
  // Within the clean-up's time (a void cut off leaves the attempt OPEN: the settler finds it and records the charge).
  await withProviderTimeout(ports.provider.voidCard({ reference, transactionId }), Math.min(ports.timeoutMs, ports.cleanupLeftMs?.() ?? ports.timeoutMs));
}

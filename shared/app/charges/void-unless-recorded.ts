import { logger } from '../../logger';
import type { InvoiceStore } from '../../ports/invoices';
import { type PaymentProvider, withProviderTimeout } from '../../providers/port';

export type VoidPorts = { invoices: Pick<InvoiceStore, 'byReference'>; provider: PaymentProvider; timeoutMs: number };

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
  await withProviderTimeout(ports.provider.voidCard({ reference, transactionId }), ports.timeoutMs);
}

import type { Change } from '../../domain/changes';
import { InvoiceNotCancelableError, NotFoundError } from '../../domain/errors';
import type { Invoice } from '../../domain/invoice';
import { type CancelRail, cancelRefusal, railsToWithdraw } from '../../domain/invoice-cancel';
import { invoiceMove } from '../../domain/invoice-transitions';
import { nextVersion } from '../../domain/object-version';
import { logger } from '../../platform/logger';
import type { InvoiceReader } from '../../ports/invoices';
import type { PixDueRemoval } from '../../ports/payment-provider';
import { callProvider } from '../charges/call-provider';
import { invoiceMoveChanges, type InvoiceMovePorts } from './apply-notification';

/** What withdrawing one rail found at its provider: withdrawn now or before, paid already, unknown to it. */
export type RailWithdrawal = PixDueRemoval;

export type CancelInvoicePorts = Pick<InvoiceMovePorts, 'checkouts' | 'newEvent'> & {
  invoices: Pick<InvoiceReader, 'byNumericId'>;
  /**
   * Withdraws one rail of the invoice at its provider (API Pix PATCH /cob or /cobv, the boleto's write-off):
   * idempotent, so a retry after a lost answer finds it withdrawn and says `removed`.
   */
  withdrawRail: (invoice: Invoice, rail: CancelRail) => Promise<RailWithdrawal>;
  /** The time limit of each provider call (PROVIDER_TIMEOUT_MS). */
  timeoutMs: number;
};

export type CancelInvoiceInput = { accountId: string; invoiceId: number; now: Date };

/** The canceled invoice (as the committed changes leave it) and the changes that move it. */
export type CancelInvoiceResult = { answer: { invoice: Invoice }; changes: Change[] };

/**
 * A merchant cancels its PENDING Pix, boleto or BolePix invoice (issue 46, POST /api/invoice/{invoice_id}/cancel):
 * each rail is withdrawn at its provider FIRST (so nothing can pay it once it is CANCELED), then the
 * invoice moves PENDING → CANCELED through the one table of moves, with the same changes as a provider's
 * cancellation notification (shared/app/invoices/apply-notification.ts: the conditional move,
 * invoice.canceled with version and previous_status, a hosted checkout's part). Refused with nothing
 * asked or moved: another account's or an unknown invoice (404), one not PENDING or a card charge (400).
 * A rail found paid refuses it too (400), nothing moved: the payment's notification records it. A rail
 * its provider does not know cannot be paid: it counts as withdrawn. A provider failure or timeout is 502
 * with nothing moved (a retry withdraws again harmlessly).
 */
export async function cancelInvoice(ports: CancelInvoicePorts, input: CancelInvoiceInput): Promise<CancelInvoiceResult> {
  const invoice = await ports.invoices.byNumericId(input.invoiceId);
  if (!invoice || invoice.accountId !== input.accountId) throw new NotFoundError('Invoice not found');
  const refusal = cancelRefusal(invoice);
  if (refusal) throw new InvoiceNotCancelableError(refusal);
  const move = invoiceMove(invoice.status, 'CANCELED');
  if (!move) throw new InvoiceNotCancelableError('invoice_not_pending');
  for (const rail of railsToWithdraw(invoice)) {
    const found = await callProvider(
      ports.withdrawRail(invoice, rail),
      ports.timeoutMs,
      'The payment provider failed to withdraw the charge; nothing was canceled',
    );
    if (found === 'paid') {
      logger.warn('cancellation refused: the charge was paid at its rail', { reference: invoice.reference, rail });
      throw new InvoiceNotCancelableError('paid_at_rail');
    }
    if (found === 'unknown') logger.warn('a rail to withdraw is unknown to its provider: nothing there can pay it', { reference: invoice.reference, rail });
  }
  const at = input.now.toISOString();
  // A payment or another cancellation committed since the read: the move's condition fails and it is refused (400), nothing written.
  const changes = (await invoiceMoveChanges(ports, invoice, move, at, input.now)).map((change) =>
    change.kind === 'invoice.moved' ? { ...change, lostRace: 'not_cancelable' as const } : change,
  );
  const { unlisted: _unlisted, ...listed } = invoice;
  const eventIds = changes.flatMap((change) => (change.kind === 'invoice.moved' && change.eventId ? [change.eventId] : []));
  const canceled: Invoice = {
    ...listed,
    status: 'CANCELED',
    canceledAt: at,
    version: nextVersion(invoice.version),
    eventIds: [...(invoice.eventIds ?? []), ...eventIds],
  };
  logger.info('invoice canceled by its merchant', { reference: invoice.reference });
  return { answer: { invoice: canceled }, changes };
}

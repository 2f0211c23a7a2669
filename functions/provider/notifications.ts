import { DomainError, NotFoundError } from '../../shared/domain/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { applyNotification, targetInvoice } from '../../shared/app/invoices/apply-notification';
import { type Invoice, targetProviderOf } from '../../shared/domain/invoice';
import { logger } from '../../shared/platform/logger';
import { NotificationRejected, type PixProvider, type ProviderNotification } from '../../shared/ports/payment-provider';
import { namedPixProvider } from '../../shared/wiring/provider-registry';
import { providerRoutes as routes } from '../../shared/http/route-table/provider';
import type { Runtime } from '../../shared/wiring/runtime';
import { providerNotificationCredential } from '../../shared/wiring/secrets';
import { applyBankOutcome } from '../../shared/app/withdrawals/apply-bank-outcome';
import { withdrawalPorts } from '../../shared/wiring/withdrawals';
import { invoiceMovePorts } from '../../shared/wiring/invoices';
import { closingRails } from '../../shared/wiring/rails';

type SigningProvider = PixProvider & Required<Pick<PixProvider, 'parseNotification'>>;

/** The provider the path names, through the registry: a name no provider sending signed notifications answers to → 404. */
function namedProvider(runtime: Runtime, name: string): SigningProvider {
  const provider = namedPixProvider(runtime.config, name);
  // API Pix PSPs post their callbacks to /provider/{name}/notifications/{token}/pix instead.
  if (!provider?.parseNotification) throw new NotFoundError('Unknown provider');
  return provider as SigningProvider;
}

/**
 * Whether the charge a notification targets was created by another provider than the one that sent
 * it (the invoice records its provider): such a notification moves nothing. An unknown charge is left
 * to applyNotification (it ignores it).
 */
function ofAnotherProvider(runtime: Runtime, notification: ProviderNotification, invoice: Invoice | undefined, provider: string): boolean {
  if (!invoice || targetProviderOf(invoice, notification.target, runtime.config.payments.provider) === provider) return false;
  logger.warn('notification ignored: the charge belongs to another provider', { notification: notification.id, kind: notification.kind, provider });
  return true;
}

/**
 * POST /provider/{name}/notifications: the provider's payment and payout notifications. The provider
 * is resolved by the path's name through the registry (unknown → 404). The signature is checked
 * against that provider's credential from Secrets Manager (bad → 401, nothing changed); each
 * notification is applied in one transaction; a move not allowed, or already made, or a charge another
 * provider created, is answered 200 and ignored.
 */
export const handler = httpHandler(routes.providerNotification, async ({ params, event, runtime, now }) => {
  const provider = namedProvider(runtime, params.name);
  const credential = await providerNotificationCredential(runtime, provider.name);
  const raw = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : (event.body ?? '');
  let notification;
  try {
    notification = provider.parseNotification(raw, event.headers ?? {}, credential, now);
  } catch (err) {
    if (err instanceof NotificationRejected) {
      if (err.detail) logger.warn('provider notification refused', { provider: provider.name, reason: err.reason, detail: err.detail });
      throw new DomainError(err.reason === 'invalid_signature' ? 'unauthorized' : 'invalid', err.message, err.reason);
    }
    throw err;
  }
  const { kind } = notification;
  if (kind === 'payout_paid' || kind === 'payout_refused') {
    const reference = 'reference' in notification.target ? notification.target.reference : '';
    const outcome = {
      notification: notification.id,
      reference,
      paid: kind === 'payout_paid',
      endToEndId: notification.endToEndId,
      occurredAt: notification.occurredAt,
    };
    return { status: 200, body: { received: true, applied: await applyBankOutcome(withdrawalPorts(runtime, routes.providerNotification), outcome, now) } };
  }
  // One read of the invoice: whose charge it is, then (the same read) the move it makes.
  const ports = { ...invoiceMovePorts(runtime, routes.providerNotification), railsMoved: closingRails(runtime, routes.providerNotification) };
  const invoice = await targetInvoice(ports, notification);
  if (ofAnotherProvider(runtime, notification, invoice, provider.name)) return { status: 200, body: { received: true, applied: false } };
  return { status: 200, body: { received: true, applied: await applyNotification(ports, { ...notification, kind }, now, { invoice }) } };
});

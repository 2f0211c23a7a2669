import { DomainError, NotFoundError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { applyNotification } from '../../shared/invoices/apply-notification';
import { applyWithdrawOutcome } from '../../shared/withdrawals/apply-outcome';
import { NotificationRejected } from '../../shared/providers/port';
import { providerFor } from '../../shared/providers/select';
import { routes } from '../../shared/http/routes';
import { providerNotificationSecret } from '../../shared/secrets/provider-credentials';

/**
 * POST /provider/{name}/notifications: the provider's payment and payout notifications. The signature is checked
 * against the provider credential from Secrets Manager (bad → 401, nothing changed); each notification
 * is applied in one transaction; a move not allowed, or already made, is answered 200 and ignored.
 */
export const handler = httpHandler(routes.providerNotification, async ({ params, event, runtime, now }) => {
  const provider = providerFor(runtime.config);
  if (params.name !== provider.name) throw new NotFoundError('Unknown provider');
  const credential = await providerNotificationSecret(runtime.config.payments.credentialsSecretId, provider.name);
  const raw = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : (event.body ?? '');
  let notification;
  try {
    notification = provider.parseNotification(raw, event.headers ?? {}, credential, now);
  } catch (err) {
    if (err instanceof NotificationRejected) throw new DomainError(err.reason === 'invalid_signature' ? 'unauthorized' : 'invalid', err.message, err.reason);
    throw err;
  }
  const { kind } = notification;
  const applied =
    kind === 'payout_paid' || kind === 'payout_refused'
      ? await applyWithdrawOutcome(runtime, notification, now)
      : await applyNotification(runtime, { ...notification, kind }, now);
  return { status: 200, body: { received: true, applied } };
});

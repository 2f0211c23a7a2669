/** The route table's rows for functions/provider/ (shared/http/routes.ts assembles the table). */
import { defineRoute, type AnyRoute } from '../route';
import { notificationParamsSchema, notificationReceiptSchema } from '../../schemas/provider';

export const providerRoutes = {
  providerNotification: defineRoute({
    id: 'ProviderNotification',
    method: 'POST',
    path: '/provider/{name}/notifications',
    handler: 'functions/provider/notifications.ts',
    auth: 'none',
    rateLimit: 'failures',
    access: 'write',
    idempotency: 'none',
    usesProviderCredentials: true,
    tag: 'Provider',
    summary: 'Payment notifications from the payment provider',
    description:
      'Authenticated by the provider signature (credential in Secrets Manager); only refused signatures are counted per IP (RATE_LIMIT_PUBLIC_PER_MINUTE), so a signing provider is never limited. Each notification moves one invoice in one transaction with its balance change and outbox event; duplicates change nothing. A confirmed payment for a CANCELED, never-paid invoice pays it (credited once, flagged paid_after_cancel); for a REFUNDED invoice it changes nothing.',
    request: { params: notificationParamsSchema },
    responses: {
      200: { description: 'Received', schema: notificationReceiptSchema },
      400: { description: 'Not JSON, or not a notification this provider sends (code invalid_notification)' },
      401: { description: 'Missing, malformed, stale or wrong signature (code invalid_signature); nothing changed' },
      404: { description: 'Unknown provider' },
    },
  }),
} satisfies Record<string, AnyRoute>;

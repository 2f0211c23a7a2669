/** The route table's rows for functions/provider/ (shared/http/routes.ts assembles the table). */
import { INVOICE_MOVE_CHANGES } from '../../domain/changes';
import { defineRoute, type AnyRoute } from '../route';
import { notificationParamsSchema, notificationReceiptSchema, pixCallbackParamsSchema, pixCallbackReceiptSchema } from '../../domain/schemas/provider';

export const providerRoutes = {
  providerNotification: defineRoute({
    id: 'ProviderNotification',
    changes: [...INVOICE_MOVE_CHANGES, 'withdrawal.moved'],
    method: 'POST',
    path: '/provider/{name}/notifications',
    handler: 'functions/provider/notifications.ts',
    auth: 'none',
    rateLimit: 'failures',
    access: 'write',
    idempotency: 'none',
    usesProviderCredentials: true,
    // A BolePix paid by boleto has its Pix half removed at the PSP right after (shared/wiring/rails.ts).
    usesPixProvider: true,
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
  providerPixCallback: defineRoute({
    id: 'ProviderPixCallback',
    changes: INVOICE_MOVE_CHANGES,
    method: 'POST',
    path: '/provider/{name}/notifications/{token}/pix',
    handler: 'functions/provider/pix-callbacks.ts',
    auth: 'none',
    rateLimit: 'failures',
    access: 'write',
    idempotency: 'none',
    usesMasterKey: true,
    usesPixProvider: true,
    tag: 'Provider',
    summary: 'Pix callbacks of an API Pix PSP (the standard appends /pix to the registered URL)',
    description:
      'The Central Bank API Pix callback `{"pix":[{endToEndId, txid, valor, horario, devolucoes?}, …]}`, several Pix per call. The path token is the one `provider register-webhook` registered (a wrong one: 401, counted per IP). The callback is a hint: each charge it names is read back from the PSP (GET /cob/{txid} over mutual TLS) and only what the PSP answers is applied, each move in one transaction with its balance change and outbox event: a payment whose amount differs from the invoice total is logged and alarmed, never credited; a full refund (devolucoes DEVOLVIDO) moves the invoice to REFUNDED. A PSP failure answers 502, so the PSP sends the callback again (moves already made change nothing).',
    request: { params: pixCallbackParamsSchema },
    responses: {
      200: { description: 'Received', schema: pixCallbackReceiptSchema },
      400: { description: 'Not JSON, or not an API Pix callback (code invalid_notification)' },
      401: { description: 'Wrong path token (code invalid_signature); nothing changed' },
      404: { description: 'No API Pix provider has that name' },
      502: { description: 'The PSP failed to answer a charge lookup; nothing more was applied: the PSP retries the callback' },
    },
  }),
} satisfies Record<string, AnyRoute>;

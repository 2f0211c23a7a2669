/** The route table's rows for functions/checkout/ (shared/http/routes.ts assembles the table). */
import { CHECKOUT_CARD_CHANGES } from '../../domain/changes';
import { defineRoute, type AnyRoute } from '../route';
import {
  checkoutCardFormSchema,
  checkoutEntryFormSchema,
  checkoutPageParamsSchema,
  checkoutResponseSchema,
  checkoutStatusSchema,
  checkoutLookupQuerySchema,
  checkoutTxRefParamsSchema,
} from '../../domain/schemas/checkout';
import { bearerRead, payerBrowser, HTML } from './policies';

export const checkoutRoutes = {
  checkoutEntry: defineRoute({
    id: 'CheckoutEntry',
    changes: ['checkout.created', 'invoice.created'],
    method: 'POST',
    path: '/ext_transfer',
    handler: 'functions/checkout/entry.ts',
    usesPixProvider: true,
    ...payerBrowser,
    access: 'write',
    browser: true,
    retryOnIdClash: true,
    summary: 'Hosted checkout entry: the form your page posts from the payer’s browser',
    description:
      'application/x-www-form-urlencoded. One checkout per (account, tx_ref): the same tx_ref again leads to the same checkout (its receipt once paid); other amounts for a used tx_ref answer 409. The form comes from the payer’s browser, who can edit it: confirm with GET /api/checkout/{tx_ref} (compare total and status) before releasing an order, or require signed forms (README).',
    request: { form: checkoutEntryFormSchema },
    responses: {
      303: { description: 'To the checkout page (Location)', contentType: HTML },
      400: { description: 'Account disabled, no method enabled for the checkout (Pix or card), or a missing or wrong signature', contentType: HTML },
      404: { description: 'Unknown public key', contentType: HTML },
      409: { description: 'The tx_ref was used with another amount or quantity', contentType: HTML },
      422: { description: 'Invalid fields, each listed', contentType: HTML },
      502: { description: 'The payment provider failed; nothing was created', contentType: HTML },
    },
  }),
  checkoutPage: defineRoute({
    id: 'CheckoutPage',
    method: 'GET',
    path: '/checkout/{reference}/{token}',
    handler: 'functions/checkout/page.ts',
    ...payerBrowser,
    access: 'read',
    browser: true,
    summary: 'The checkout page (Pix QR code and card form; the receipt once paid)',
    request: { params: checkoutPageParamsSchema },
    responses: {
      200: { description: 'HTML page', contentType: HTML },
      404: { description: 'Unknown checkout or wrong link', contentType: HTML },
      410: { description: 'Abandoned: not paid within CHECKOUT_TTL', contentType: HTML },
    },
  }),
  checkoutCard: defineRoute({
    id: 'CheckoutCardPayment',
    changes: CHECKOUT_CARD_CHANGES,
    method: 'POST',
    path: '/checkout/{reference}/{token}/card',
    handler: 'functions/checkout/card.ts',
    ...payerBrowser,
    access: 'write',
    browser: true,
    summary: 'The checkout page’s card form',
    description:
      'Approved: 303 to callback_url with tx_ref and status=PAID. Declined: the page again (400) and the checkout stays PENDING. No answer from the processor: the page says the payment is being checked (UNKNOWN) until the processor tells. Card testing caps: after CARD_DECLINES_PER_CHECKOUT declines the card form locks (400); too many declines of one card or one merchant within the hour (CARD_DECLINES_PER_CARD_PER_HOUR, CARD_DECLINES_PER_MERCHANT_PER_HOUR) answer the page with 429 and Retry-After, the provider not asked.',
    request: { params: checkoutPageParamsSchema, form: checkoutCardFormSchema },
    responses: {
      303: { description: 'Paid: to callback_url', contentType: HTML },
      400: {
        description:
          'Declined, the card is no longer enabled for the account, the checkout took its declined attempts (CARD_DECLINES_PER_CHECKOUT: the page shows the card form locked, Pix still pays), or the post is not the page’s form (application/x-www-form-urlencoded)',
        contentType: HTML,
      },
      403: { description: 'The form’s token does not match the page’s cookie (reload the page)', contentType: HTML },
      404: { description: 'Unknown checkout or wrong link', contentType: HTML },
      409: { description: 'Already paid', contentType: HTML },
      410: { description: 'Abandoned', contentType: HTML },
      422: { description: 'Invalid card fields', contentType: HTML },
      502: { description: 'The processor did not answer: the checkout is UNKNOWN until it does', contentType: HTML },
    },
  }),
  checkoutStatus: defineRoute({
    id: 'CheckoutStatus',
    method: 'GET',
    path: '/checkout/{reference}/{token}/status',
    handler: 'functions/checkout/status.ts',
    ...payerBrowser,
    access: 'read',
    summary: 'The checkout’s status, polled by its page',
    request: { params: checkoutPageParamsSchema },
    responses: { 200: { description: 'The status', schema: checkoutStatusSchema }, 404: { description: 'Unknown checkout or wrong link' } },
  }),
  getCheckout: defineRoute({
    id: 'GetCheckout',
    method: 'GET',
    path: '/api/checkout/{tx_ref}',
    handler: 'functions/checkout/get.ts',
    ...bearerRead,
    tag: 'Hosted checkout',
    summary: 'A hosted checkout by your tx_ref: confirm total and status here before releasing an order',
    description:
      'The payer’s redirect to callback_url proves nothing: only this answer (status PAID and the total you expect) does. Without signed forms, a stranger who knows your public key can post another sale under your tx_ref (it never blocks your payer’s): pass ?total= with your sale’s total to get the checkout it describes; `checkouts` lists every checkout of the tx_ref when there is more than one.',
    request: { params: checkoutTxRefParamsSchema, query: checkoutLookupQuerySchema },
    responses: { 200: { description: 'The checkout', schema: checkoutResponseSchema }, 404: { description: 'Unknown, or of another account' } },
  }),
} satisfies Record<string, AnyRoute>;

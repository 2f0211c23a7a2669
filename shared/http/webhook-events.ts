import * as z from 'zod';
import { moneyString } from '../domain/schemas/balance';
import { API_VERSION } from '../domain/schemas/common';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhooks';
import { CHARGE_METHODS } from '../domain/payment-methods';

/**
 * The bodies of the webhooks the service sends (spec 6.1, 6.2), for the OpenAPI document's `webhooks`:
 * the same fields invoiceEventData (shared/platform/invoice-references.ts), orderEventData (shared/checkout/record.ts),
 * withdrawEventData (shared/domain/withdrawal.ts) and the ping of POST /api/webhook/test write.
 * The integration tests' receivers check every delivery they get against these schemas.
 */

const envelope = {
  id: z
    .string()
    .regex(/^evt_[A-Za-z0-9]{24}$/)
    .describe('evt_ and 24 characters; also in the Service-Event-Id header: deduplicate on it'),
  created: z.number().int().min(0).describe('Unix seconds'),
  api_version: z.string().describe(`The API version (${API_VERSION})`),
};

/** Every event's object carries its version and the status the change left (issue 29): keep the highest version seen, drop older events. */
const versioned = (statuses: readonly [string, ...string[]]) => ({
  version: z.number().int().min(1).describe('1 at creation, +1 at each state change: an event with a lower version than one already handled is older; drop it'),
  previous_status: z.enum(statuses).nullable().describe('The status the change left; null when the object was created in this state'),
});

const invoiceData = z
  .object({
    reference: z.string(),
    invoice_no: z.string(),
    total: moneyString,
    status: z.enum(['PAID', 'CANCELED', 'REFUNDED']),
    method: z.enum(CHARGE_METHODS),
    paid_after_cancel: z.boolean().describe('A payment confirmed for a CANCELED invoice that was never paid'),
    rail: z.enum(CHARGE_METHODS).optional().describe('invoice.paid: the rail that paid (a BolePix: pix or boleto)'),
    paid_amount: moneyString.optional().describe('invoice.paid: the amount credited (the total, or with a late payment the amount due that day)'),
    ...versioned(['PENDING', 'PAID', 'CANCELED', 'REFUNDED']),
  })
  .meta({ id: 'WebhookInvoice' });

const orderData = z
  .object({
    reference: z.string().describe('The checkout reference (CHK-XXXXXXXX)'),
    tx_ref: z.string(),
    status: z.enum(['PAID', 'CANCELED', 'REFUNDED']),
    total: moneyString,
    quantity: z.number().int().min(1),
    product: z.object({ reference: z.string().nullable(), name: z.string() }),
    customer: z.object({ name: z.string(), email: z.string() }),
    paid_at: z.string(),
    invoice_reference: z.string().nullable(),
    ...versioned(['PAID', 'CANCELED', 'REFUNDED']),
  })
  .meta({ id: 'WebhookOrder' });

const withdrawData = z
  .object({ reference: z.string(), amount: moneyString, fee: moneyString, status: z.enum(['PAID', 'CANCELED']), ...versioned(['PENDING']) })
  .meta({ id: 'WebhookWithdraw' });

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

function event<T extends WebhookEventType>(type: T, data: z.ZodType, id: string, description: string) {
  return z.object({ ...envelope, type: z.literal(type), data }).meta({ id, description });
}

const CREATED = 1795000000;
const envelopeExample = (type: WebhookEventType, id: string) => ({ id, type, created: CREATED, api_version: API_VERSION });
const invoiceExample = (status: 'PAID' | 'CANCELED' | 'REFUNDED') => ({
  invoice: {
    reference: 'INV-7KQ2MX',
    invoice_no: '1001',
    total: '190.00',
    status,
    method: 'pix',
    paid_after_cancel: false,
    ...(status === 'PAID' ? { rail: 'pix', paid_amount: '190.00' } : {}),
    version: status === 'REFUNDED' ? 3 : 2,
    previous_status: status === 'REFUNDED' ? 'PAID' : 'PENDING',
  },
});
const orderExample = (status: 'PAID' | 'CANCELED' | 'REFUNDED') => ({
  order: {
    reference: 'CHK-7KQ2MXHP',
    tx_ref: 'order-1001',
    status,
    total: '99.80',
    quantity: 2,
    product: { reference: 'SKU-1', name: 'Camiseta' },
    customer: { name: 'Ana Silva', email: 'ana@example.com' },
    paid_at: '2026-11-18T14:03:21.000Z',
    invoice_reference: 'INV-7KQ2MY',
    version: status === 'PAID' ? 1 : 2,
    previous_status: status === 'PAID' ? null : 'PAID',
  },
});
const withdrawExample = (status: 'PAID' | 'CANCELED') => ({
  withdraw: { reference: 'WD-4H7K2M9QXB3P', amount: '25.50', fee: '1.50', status, version: 2, previous_status: 'PENDING' },
});

/** One schema per event type, with what the event means and an example body. */
export const WEBHOOK_EVENTS: Readonly<Record<WebhookEventType, { summary: string; schema: z.ZodType; example: Record<string, unknown> }>> = {
  'invoice.paid': {
    summary: 'An invoice became PAID',
    schema: event('invoice.paid', z.object({ invoice: invoiceData }), 'InvoicePaidEvent', 'An invoice became PAID'),
    example: { ...envelopeExample('invoice.paid', 'evt_3fK9tQ2mZ8xW1vB7nR4cY6hD'), data: invoiceExample('PAID') },
  },
  'invoice.canceled': {
    summary: 'An invoice became CANCELED',
    schema: event('invoice.canceled', z.object({ invoice: invoiceData }), 'InvoiceCanceledEvent', 'An invoice became CANCELED'),
    example: { ...envelopeExample('invoice.canceled', 'evt_8aL2pW5nQ1zX7cV3bM9kT4rJ'), data: invoiceExample('CANCELED') },
  },
  'invoice.refunded': {
    summary: 'An invoice became REFUNDED',
    schema: event('invoice.refunded', z.object({ invoice: invoiceData }), 'InvoiceRefundedEvent', 'An invoice became REFUNDED'),
    example: { ...envelopeExample('invoice.refunded', 'evt_5mN8qR2tW7yZ1xC4vB6nL9kH'), data: invoiceExample('REFUNDED') },
  },
  'order.paid': {
    summary: 'A hosted checkout sale was confirmed (payment approved)',
    schema: event('order.paid', z.object({ order: orderData }), 'OrderPaidEvent', 'A hosted checkout sale was confirmed'),
    example: { ...envelopeExample('order.paid', 'evt_2hJ7kL9mN4pQ6rS8tV1wX3yZ'), data: orderExample('PAID') },
  },
  'order.canceled': {
    summary: 'A hosted checkout sale was canceled',
    schema: event('order.canceled', z.object({ order: orderData }), 'OrderCanceledEvent', 'A hosted checkout sale was canceled'),
    example: { ...envelopeExample('order.canceled', 'evt_9zY8xW7vU6tS5rQ4pN3mL2kJ'), data: orderExample('CANCELED') },
  },
  'order.refunded': {
    summary: 'A hosted checkout sale was refunded or reversed',
    schema: event('order.refunded', z.object({ order: orderData }), 'OrderRefundedEvent', 'A hosted checkout sale was refunded or reversed'),
    example: { ...envelopeExample('order.refunded', 'evt_1aB2cD3eF4gH5iJ6kL7mN8oP'), data: orderExample('REFUNDED') },
  },
  'pixout.paid': {
    summary: 'A Pix withdrawal was concluded',
    schema: event('pixout.paid', z.object({ withdraw: withdrawData }), 'PixoutPaidEvent', 'A Pix withdrawal was concluded'),
    example: { ...envelopeExample('pixout.paid', 'evt_6qW5eR4tY3uI2oP1aS9dF8gH'), data: withdrawExample('PAID') },
  },
  'pixout.canceled': {
    summary: 'A Pix withdrawal was canceled; its value returned to the balance',
    schema: event('pixout.canceled', z.object({ withdraw: withdrawData }), 'PixoutCanceledEvent', 'A Pix withdrawal was canceled'),
    example: { ...envelopeExample('pixout.canceled', 'evt_4zX3cV2bN1mQ9wE8rT7yU6iO'), data: withdrawExample('CANCELED') },
  },
  ping: {
    summary: 'A test event (POST /api/webhook/test)',
    schema: event('ping', z.object({ message: z.string() }), 'PingEvent', 'A test event queued by POST /api/webhook/test'),
    example: {
      ...envelopeExample('ping', 'evt_7pL6oK5iJ4uH3yG2tF1rD9eS'),
      data: { message: 'Test event from the payment gateway: your endpoint is reachable.' },
    },
  },
};

/** The headers every delivery carries (spec 6.3). */
export const WEBHOOK_HEADERS: readonly { name: string; description: string; pattern: string; maxLength: number }[] = [
  {
    name: 'Service-Signature',
    description:
      't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">, keyed with the whsec_ secret. Verify the raw bytes; reject timestamps more than 300 s off.',
    pattern: '^t=\\d{1,12},v1=[0-9a-f]{64}$',
    maxLength: 80,
  },
  {
    name: 'Service-Event-Id',
    description: 'The event id (body `id`): deduplicate on it, delivery is at least once',
    pattern: '^evt_[A-Za-z0-9]{24}$',
    maxLength: 28,
  },
  { name: 'User-Agent', description: 'Service-Webhooks/1.0', pattern: '^Service-Webhooks/1\\.0$', maxLength: 20 },
];

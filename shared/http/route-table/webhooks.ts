/** The route table's rows for functions/webhooks/ (shared/http/routes.ts assembles the table). */
import { defineRoute, type AnyRoute } from '../route';
import { deliveriesSchema, putWebhookBodySchema, webhookConfigSchema, webhookRotatedSchema, webhookSetSchema, webhookTestSchema } from '../../schemas/webhook';
import { bearerRead, bearerWrite } from './policies';

export const webhooksRoutes = {
  getWebhook: defineRoute({
    id: 'GetWebhook',
    method: 'GET',
    path: '/api/webhook',
    handler: 'functions/webhooks/get.ts',
    ...bearerRead,
    tag: 'Webhooks',
    summary: 'The webhook URL, whether a secret is configured, and the event types sent',
    request: {},
    responses: { 200: { description: 'The configuration', schema: webhookConfigSchema } },
  }),
  putWebhook: defineRoute({
    id: 'PutWebhook',
    method: 'PUT',
    path: '/api/webhook',
    handler: 'functions/webhooks/put.ts',
    ...bearerWrite,
    idempotency: 'none',
    tag: 'Webhooks',
    summary: 'Set the webhook URL (the first time also creates the signing secret, shown once)',
    description: 'https only; port 443 or 8443; no user or password; every address the host resolves to must be public. A violation answers 422 on url.',
    request: { body: putWebhookBodySchema },
    responses: {
      200: { description: 'The URL (and the secret, at first configuration)', schema: webhookSetSchema },
      409: { description: 'Another request configured the webhook at the same moment; repeat the request (code conflict)' },
    },
  }),
  rotateWebhookSecret: defineRoute({
    id: 'RotateWebhookSecret',
    method: 'POST',
    path: '/api/webhook/secret/rotate',
    handler: 'functions/webhooks/rotate.ts',
    ...bearerWrite,
    idempotency: 'none',
    tag: 'Webhooks',
    summary: 'Issue a new signing secret (shown once); the previous one stops signing at once',
    request: {},
    responses: { 200: { description: 'The new secret', schema: webhookRotatedSchema }, 409: { description: 'No webhook configured' } },
  }),
  testWebhook: defineRoute({
    id: 'TestWebhook',
    method: 'POST',
    path: '/api/webhook/test',
    handler: 'functions/webhooks/test.ts',
    ...bearerWrite,
    idempotency: 'none',
    tag: 'Webhooks',
    summary: 'Queue one ping event',
    request: {},
    responses: { 202: { description: 'Queued', schema: webhookTestSchema }, 409: { description: 'No webhook configured' } },
  }),
  webhookDeliveries: defineRoute({
    id: 'ListWebhookDeliveries',
    method: 'GET',
    path: '/api/webhook/deliveries',
    handler: 'functions/webhooks/deliveries.ts',
    ...bearerRead,
    tag: 'Webhooks',
    summary: 'The last 25 deliveries, newest first',
    request: {},
    responses: { 200: { description: 'Deliveries', schema: deliveriesSchema } },
  }),
} satisfies Record<string, AnyRoute>;

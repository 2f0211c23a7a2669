import * as z from 'zod';
import { singleLineText } from './text';
import { WEBHOOK_EVENT_TYPES } from '../webhooks';

export const putWebhookBodySchema = z
  .object({
    url: singleLineText(255)
      .min(1)
      .meta({ format: 'uri', description: 'An absolute https URL: port 443 or 8443, no credentials; its host must resolve only to public addresses' }),
    events: z
      .array(z.string().max(40))
      .max(WEBHOOK_EVENT_TYPES.length * 2)
      .optional()
      .describe(
        `The event types to receive (${WEBHOOK_EVENT_TYPES.join(', ')}); absent: every type (the default). Events of other types are recorded but not delivered; the test ping is always delivered. An unknown type → 422 on events.`,
      ),
  })
  .meta({ id: 'SetWebhook' });

export const webhookConfigSchema = z
  .object({
    webhook: z.object({
      url: z.string().meta({ format: 'uri' }).nullable(),
      secret_configured: z.boolean(),
      events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).describe('The event types subscribed (every type unless PUT /api/webhook named some)'),
    }),
  })
  .meta({ id: 'WebhookConfig' });

export const webhookSetSchema = z
  .object({
    webhook: z.object({
      url: z.string().meta({ format: 'uri' }),
      events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).describe('The event types subscribed'),
      secret: z.string().optional().describe('Only at first configuration'),
      secret_notice: z.string(),
    }),
  })
  .meta({ id: 'WebhookSet' });

export const webhookRotatedSchema = z.object({ webhook: z.object({ secret: z.string(), secret_notice: z.string() }) }).meta({ id: 'WebhookSecretRotated' });

export const webhookTestSchema = z.object({ event_id: z.string(), status: z.literal('queued') }).meta({ id: 'WebhookTestQueued' });

export const deliverySchema = z
  .object({
    event_id: z.string(),
    type: z.string(),
    url: z.string().meta({ format: 'uri' }),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable(),
    last_status: z.number().int().nullable().describe('HTTP status of the last attempt, or null when no answer came'),
    last_error: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });

export const deliveriesSchema = z.object({ deliveries: z.array(deliverySchema) }).meta({ id: 'WebhookDeliveries' });

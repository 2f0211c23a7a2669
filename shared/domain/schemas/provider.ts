import * as z from 'zod';

export const notificationParamsSchema = z.object({ name: z.string().regex(/^[a-z0-9-]{1,40}$/, 'Must be a provider name') });

export const notificationReceiptSchema = z
  .object({ received: z.literal(true), applied: z.boolean().describe('false when the move was not allowed or already made') })
  .meta({ id: 'NotificationReceipt' });

export const pixCallbackParamsSchema = notificationParamsSchema.extend({
  token: z.string().max(64).describe('The path secret the gateway registered with the PSP (`provider register-webhook`)'),
});

export const pixCallbackReceiptSchema = z
  .object({
    received: z.literal(true),
    charges: z.number().int().min(0).describe('Charges of this gateway the callback named (each read back from the PSP)'),
    applied: z.number().int().min(0).describe('State moves made (a payment, a refund); 0 when every one was already made'),
  })
  .meta({ id: 'PixCallbackReceipt' });

export const boletoPageParamsSchema = z.object({ reference: z.string().max(20), token: z.string().max(64) });

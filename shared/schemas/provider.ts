import * as z from 'zod';

export const notificationParamsSchema = z.object({ name: z.string().regex(/^[a-z0-9-]{1,40}$/, 'Must be a provider name') });

export const notificationReceiptSchema = z
  .object({ received: z.literal(true), applied: z.boolean().describe('false when the move was not allowed or already made') })
  .meta({ id: 'NotificationReceipt' });

export const boletoPageParamsSchema = z.object({ reference: z.string().max(20), token: z.string().max(64) });

import * as z from 'zod';
import { PAID_NOTICES } from '../../domain/payment-methods';

const notificationId = z.string().min(1).max(100);
/** ISO 8601 UTC; 40 characters bound it with room for any fraction the provider sends. */
const occurredAt = z.iso.datetime().max(40).optional();
/** What the payer paid ("12.34"); absent: the amount due on the payment's date (as a bank computes it). */
const paidAmount = z
  .string()
  .regex(/^\d{1,13}\.\d{2}$/)
  .optional();

/** What names the charge a payment notice pays: the Pix txid, or the invoice's reference. */
const paidTarget = { txid: { txid: z.string().min(1).max(35) }, reference: { reference: z.string().min(1).max(20) } };

/** A payment on a method's rail: one variant per method row with a paid notice (`pix.paid` by txid, `boleto.paid` by reference). */
const paidNotifications = PAID_NOTICES.map((notice) =>
  z.object({ id: notificationId, type: z.literal(notice.type), ...paidTarget[notice.by], amount: paidAmount, occurred_at: occurredAt }),
);

/**
 * The simulated provider's notifications: what its adapter parses (shared/providers/simulated.ts) and
 * what the OpenAPI document declares for the notification route (shared/http/routes.ts). A module of
 * its own (zod only), so the route table does not pull the provider's code into every function.
 */
export const simulatedNotificationSchema = z
  .union([
    z.object({
      id: notificationId,
      type: z.literal('pixout.paid'),
      reference: z.string().min(1).max(20),
      end_to_end_id: z.string().regex(/^[A-Za-z0-9]{32}$/),
      occurred_at: occurredAt,
    }),
    z.object({
      id: notificationId,
      type: z.literal('pixout.refused'),
      reference: z.string().min(1).max(20),
      reason: z.string().max(200).optional(),
      occurred_at: occurredAt,
    }),
    ...paidNotifications,
    z.object({
      id: notificationId,
      type: z.enum(['charge.canceled', 'charge.refunded']),
      reference: z.string().min(1).max(20),
      occurred_at: occurredAt,
    }),
  ])
  .meta({ id: 'SimulatedNotification', description: 'A notification of the simulated provider (`name` simulated).' });

export type SimulatedNotification = z.input<typeof simulatedNotificationSchema>;

import { createCardCharge } from '../../shared/app/charges/create-card-charge';
import { requireCaller } from '../../shared/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { chargesRoutes as routes } from '../../shared/http/route-table/charges';
import { cardChargeChanges, cardChargePorts } from '../../shared/wiring/cards';

/**
 * POST /api/creditcard/create (shared/app/charges/create-card-charge.ts): approved → PAID with its
 * credit and invoice.paid, committed with the attempt's move; a retry of a recorded charge answers it
 * again (Idempotent-Replayed); an approval that cannot be recorded is voided.
 */
export const handler = httpHandler(
  routes.createCard,
  async ({ body, caller, idempotencyKey, runtime, now }) => {
    const result = await createCardCharge(cardChargePorts(runtime, routes.createCard), { caller: requireCaller(caller), body, idempotencyKey, now });
    return {
      status: 200,
      body: result.answer,
      ...(result.replayed ? { headers: { 'Idempotent-Replayed': 'true' } } : {}),
      changes: result.changes,
      ...(result.compensate ? { compensate: result.compensate } : {}),
    };
  },
  { changes: cardChargeChanges },
);

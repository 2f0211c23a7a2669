import { cardChargeReads, createCardCharge } from '../../shared/app/charges/create-card-charge';
import { requireCaller } from '../../shared/domain/auth/caller';
import { httpHandler, type PrepareInput } from '../../shared/http/pipeline';
import { type cardCreateBodySchema, chargesRoutes as routes } from '../../shared/http/route-table/charges';
import { cardChargeChanges, cardChargePorts } from '../../shared/wiring/cards';

/** The decline logs, the charge's attempt and ids checked unused, read beside the gate and the lock (issue 26). */
function chargeReads({ body, caller, idempotencyKey, runtime, now }: PrepareInput<typeof cardCreateBodySchema>) {
  return cardChargeReads(cardChargePorts(runtime, routes.createCard), { accountId: requireCaller(caller).accountId, body, idempotencyKey, now });
}

/**
 * POST /api/creditcard/create (shared/app/charges/create-card-charge.ts): approved → PAID with its
 * credit and invoice.paid, committed with the attempt's move; a retry of a recorded charge answers it
 * again (Idempotent-Replayed); an approval that cannot be recorded is voided.
 */
export const handler = httpHandler(
  routes.createCard,
  async ({ body, caller, idempotencyKey, runtime, now, prepared }) => {
    const result = await createCardCharge(cardChargePorts(runtime, routes.createCard), {
      caller: requireCaller(caller),
      body,
      idempotencyKey,
      now,
      read: prepared,
    });
    return {
      status: 200,
      body: result.answer,
      ...(result.replayed ? { headers: { 'Idempotent-Replayed': 'true' } } : {}),
      changes: result.changes,
      ...(result.compensate ? { compensate: result.compensate } : {}),
    };
  },
  { changes: cardChargeChanges, prepare: chargeReads },
);

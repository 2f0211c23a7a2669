import { reserveWithdrawal } from '../../shared/app/withdrawals/reserve-withdrawal';
import { withdrawalPorts, withdrawalChanges } from '../../shared/wiring/withdrawals';
import { requireCaller } from '../../shared/domain/auth/caller';
import { withdrawView } from '../../shared/domain/withdrawal';
import { withdrawFeeCentsOf } from '../../shared/domain/withdrawal-fee';
import { httpHandler } from '../../shared/http/pipeline';
import { pixoutRoutes as routes } from '../../shared/http/route-table/pixout';
import { newWithdrawReference } from '../../shared/platform/ids';

/**
 * POST /api/pixout/create: reserves amount + fee atomically (one transaction with the PENDING withdraw
 * and the completed idempotency record); the bank is asked only after that commit, by the payout
 * queue's worker (fed from the table stream), so no request can be lost or paid twice.
 */
export const handler = httpHandler(
  routes.createWithdraw,
  async ({ body, caller, runtime, now }) => {
    const account = requireCaller(caller);
    const { answer, changes } = await reserveWithdrawal(withdrawalPorts(runtime, routes.createWithdraw), {
      accountId: account.accountId,
      feeCents: withdrawFeeCentsOf(account.account),
      amountCents: body.amount,
      pixkey: body.pixkey,
      keytype: body.keytype,
      description: body.description,
      client: body.client,
      document: body.document,
      email: body.email,
      bank: runtime.config.payouts.bank,
      reference: newWithdrawReference(),
      now,
    });
    return {
      status: 200,
      body: { success: true, message: 'Withdraw requested: amount and fee are reserved until the bank pays or refuses it', withdraw: withdrawView(answer) },
      changes,
    };
  },
  { changes: withdrawalChanges },
);

import { requireCaller } from '../../shared/auth/caller';
import { ValidationError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { centsFromNumber } from '../../shared/domain/money';
import { withdrawalOverLimit, withdrawFeeCentsOf } from '../../shared/domain/withdrawal-fee';
import { pixoutRoutes as routes } from '../../shared/http/route-table/pixout';
import { newWithdrawReference, reservationWrites, withdrawItem, withdrawView } from '../../shared/withdrawals/record';

/**
 * POST /api/pixout/create: reserves amount + fee atomically (one transaction with the PENDING withdraw
 * and the completed idempotency record); the bank is asked only after that commit, by the payout
 * queue's worker (fed from the table stream), so no request can be lost or paid twice.
 */

export const handler = httpHandler(routes.createWithdraw, async ({ body, caller, runtime, now }) => {
  const account = requireCaller(caller);
  const amountCents = centsFromNumber(body.amount);
  const feeCents = withdrawFeeCentsOf(account.account);
  // 422 on amount when the amount plus the account's fee exceeds what one withdrawal may reserve.
  const overLimit = withdrawalOverLimit(amountCents, feeCents);
  if (overLimit) throw new ValidationError({ amount: [overLimit] });
  const { personalData } = await runtime.serviceKeys();
  const item = withdrawItem(
    {
      accountId: account.accountId,
      reference: newWithdrawReference(),
      bank: runtime.config.payouts.bank,
      amountCents,
      feeCents,
      pixkey: body.pixkey,
      keytype: body.keytype,
      description: body.description,
      client: body.client,
      document: body.document,
      email: body.email,
      createdAt: now.toISOString(),
    },
    personalData,
  );
  return {
    status: 200,
    body: {
      success: true,
      message: 'Withdraw requested: amount and fee are reserved until the bank pays or refuses it',
      withdraw: withdrawView(item, personalData),
    },
    writes: await reservationWrites(runtime.db, runtime.config.tableName, item),
  };
});

import { requireCaller } from '../../shared/auth/caller';
import { ValidationError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { centsFromNumber, formatCents } from '../../shared/domain/money';
import { pixoutRoutes as routes } from '../../shared/http/route-table/pixout';
import { WITHDRAW_LIMIT_CENTS } from '../../shared/schemas/withdraw';
import { newWithdrawReference, reservationWrites, withdrawItem, withdrawView } from '../../shared/withdrawals/record';

/**
 * POST /api/pixout/create: reserves amount + fee atomically (one transaction with the PENDING withdraw
 * and the completed idempotency record); the bank is asked only after that commit, by the payout
 * queue's worker (fed from the table stream), so no request can be lost or paid twice.
 */
/** 422 on amount when the amount plus the account's fee exceeds what one withdrawal may reserve. */
function assertWithinLimit(amountCents: number, feeCents: number): void {
  if (amountCents + feeCents > WITHDRAW_LIMIT_CENTS) {
    throw new ValidationError({
      amount: [`The amount plus the withdrawal fee (${formatCents(feeCents)}) must be at most ${formatCents(WITHDRAW_LIMIT_CENTS)}`],
    });
  }
}

export const handler = httpHandler(routes.createWithdraw, async ({ body, caller, runtime, now }) => {
  const account = requireCaller(caller);
  const amountCents = centsFromNumber(body.amount);
  const feeCents = Number(account.account?.withdrawFeeCents ?? 0);
  assertWithinLimit(amountCents, feeCents);
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

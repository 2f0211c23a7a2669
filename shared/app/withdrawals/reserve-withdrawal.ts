import type { Change } from '../../domain/changes';
import type { Withdrawal } from '../../domain/withdrawal';
import { withdrawalOverLimit } from '../../domain/withdrawal-fee';
import { ValidationError } from '../../domain/errors';
import type { BalancePort } from '../../ports/withdrawals';
import { definedOnly } from '../../domain/defined';

/**
 * The withdrawal asked for: `feeCents` is the account's fee for one withdrawal, `bank` the registry name
 * of the bank that will pay it (BANK_PROVIDER now), `reference` a fresh withdraw reference (`WD-` + 12).
 */
export type ReserveWithdrawalRequest = Pick<
  Withdrawal,
  'accountId' | 'feeCents' | 'amountCents' | 'pixkey' | 'keytype' | 'description' | 'client' | 'document' | 'email' | 'reference'
> & { bank: string; now: Date };

/**
 * Reserves a Pix withdrawal: amount + fee are held (the pending phase of its transfer) only if the
 * available balance covers them, and the PENDING withdrawal is created, as the changes of ONE
 * transaction (the route commits them with its idempotency record). The bank is asked only after that
 * commit, by the payout worker. 422 on amount when amount + fee is more than one withdrawal may hold;
 * 400 when the balance does not cover it.
 */
export async function reserveWithdrawal(
  ports: { balance: BalancePort },
  request: ReserveWithdrawalRequest,
): Promise<{ answer: Withdrawal; changes: Change[] }> {
  const { amountCents, feeCents, reference, accountId } = request;
  const overLimit = withdrawalOverLimit(amountCents, feeCents);
  if (overLimit) throw new ValidationError({ amount: [overLimit] });
  const createdAt = request.now.toISOString();
  const withdrawal: Withdrawal = {
    reference,
    accountId,
    status: 'PENDING',
    amountCents,
    feeCents,
    heldCents: amountCents + feeCents,
    pixkey: request.pixkey,
    keytype: request.keytype,
    bank: request.bank,
    createdAt,
    ...definedOnly({ description: request.description, client: request.client, document: request.document, email: request.email }),
  };
  const hold = await ports.balance.planHold({ accountId, reference, description: `Pix withdrawal ${reference}`, at: createdAt }, amountCents, feeCents);
  return { answer: withdrawal, changes: [hold, { kind: 'withdrawal.created', withdrawal }] };
}

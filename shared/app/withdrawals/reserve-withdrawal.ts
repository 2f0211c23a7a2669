import type { Change } from '../../domain/changes';
import type { KeyType, Withdrawal } from '../../domain/withdrawal';
import { withdrawalOverLimit } from '../../domain/withdrawal-fee';
import { ValidationError } from '../../errors';
import type { BalancePort } from '../../ports/withdrawals';

export type ReserveWithdrawalRequest = {
  accountId: string;
  /** The account's fee for one withdrawal (cents). */
  feeCents: number;
  amountCents: number;
  pixkey: string;
  keytype: KeyType;
  description?: string;
  client?: string;
  document?: string;
  email?: string;
  /** The registry name of the bank that will pay it (BANK_PROVIDER now). */
  bank: string;
  /** A fresh withdraw reference (`WD-` + 12). */
  reference: string;
  now: Date;
};

/**
 * Reserves a Pix withdrawal: amount + fee are held (the pending phase of its transfer) only if the
 * available balance covers them, and the PENDING withdrawal is created, as the changes of ONE
 * transaction (the route commits them with its idempotency record). The bank is asked only after that
 * commit, by the payout worker. 422 on amount when amount + fee is more than one withdrawal may hold;
 * 400 when the balance does not cover it.
 */
export async function reserveWithdrawal(ports: { balance: BalancePort }, request: ReserveWithdrawalRequest): Promise<{ answer: Withdrawal; changes: Change[] }> {
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
    ...(request.description !== undefined ? { description: request.description } : {}),
    ...(request.client !== undefined ? { client: request.client } : {}),
    ...(request.document !== undefined ? { document: request.document } : {}),
    ...(request.email !== undefined ? { email: request.email } : {}),
  };
  const hold = await ports.balance.planHold({ accountId, reference, description: `Pix withdrawal ${reference}`, at: createdAt }, amountCents, feeCents);
  return { answer: withdrawal, changes: [hold, { kind: 'withdrawal.created', withdrawal }] };
}

import type { Change, OutboxEvent } from '../../domain/changes';
import { type LedgerTransfer, withdrawalPost, withdrawalVoid } from '../../domain/ledger';
import { withdrawEventData, type Withdrawal } from '../../domain/withdrawal';
import { nextVersion } from '../../domain/object-version';
import { type WithdrawMove, withdrawMove } from '../../domain/withdrawal-transitions';
import { logger } from '../../platform/logger';
import { BUSINESS_METRICS, countMetric } from '../../platform/metrics';
import type { WithdrawalStore } from '../../ports/withdrawals';

/** The bank's answer to a withdrawal: paid (with its end-to-end id) or refused. */
export type BankOutcome = { notification: string; reference: string; paid: boolean; endToEndId?: string; occurredAt: Date };

export type BankOutcomePorts = {
  withdrawals: WithdrawalStore;
  newEvent: (type: string, data: Record<string, unknown>, now: Date) => OutboxEvent;
  /** Commits a state move's changes in ONE transaction; false when its from-status no longer held (nothing written). */
  commitMove: (changes: readonly Change[]) => Promise<boolean>;
};

/**
 * The ledger side of a bank outcome: paid POSTS the held transfer (the reserved amount + fee leaves),
 * refused VOIDS it (back to the available balance). A withdraw reserved before holds (no `heldCents`)
 * had its amount taken outright: paid changes no balance, refused gives amount + fee back.
 */
function outcomeTransfer(withdrawal: Withdrawal, move: WithdrawMove, at: string): LedgerTransfer[] {
  const { accountId, reference, amountCents, feeCents } = withdrawal;
  const held = withdrawal.heldCents !== undefined;
  const movement = { accountId, reference, at };
  if (!move.refund) return held ? [withdrawalPost({ ...movement, description: `Withdrawal ${reference} paid by the bank` }, amountCents, feeCents)] : [];
  return [withdrawalVoid({ ...movement, description: `Refused withdrawal ${reference}: amount and fee returned` }, amountCents, feeCents, held)];
}

/** The changes of a bank outcome's move: the conditional status move first, the transfer's phase, the event. */
export function bankOutcomeChanges(withdrawal: Withdrawal, move: WithdrawMove, outcome: BankOutcome, event: OutboxEvent, now: Date): Change[] {
  return [
    {
      kind: 'withdrawal.moved',
      reference: withdrawal.reference,
      from: move.from,
      to: move.to,
      version: nextVersion(withdrawal.version),
      at: outcome.occurredAt.toISOString(),
      ...(move.to === 'PAID' ? { endToEndId: outcome.endToEndId ?? '' } : {}),
    },
    ...outcomeTransfer(withdrawal, move, now.toISOString()),
    { kind: 'event.recorded', accountId: withdrawal.accountId, event },
  ];
}

/**
 * Applies the bank's outcome of a withdrawal: concluded → PAID with its end-to-end id, its transfer
 * posted and pixout.paid; refused → CANCELED, its transfer voided (amount + fee back to the available
 * balance) and pixout.canceled; in ONE transaction conditional on PENDING. Returns whether it was
 * applied: an unknown withdraw, a move the table does not allow, or one a duplicate or late outcome
 * made first changes nothing.
 */
export async function applyBankOutcome(ports: BankOutcomePorts, outcome: BankOutcome, now: Date): Promise<boolean> {
  const context = { notification: outcome.notification, kind: outcome.paid ? 'payout_paid' : 'payout_refused', reference: outcome.reference };
  const to = outcome.paid ? 'PAID' : 'CANCELED';
  const withdrawal = await ports.withdrawals.get(outcome.reference);
  if (!withdrawal) {
    logger.warn('outcome for an unknown withdraw ignored', context);
    return false;
  }
  const move = withdrawMove(withdrawal.status, to);
  if (!move) {
    logger.warn('withdraw outcome ignored: move not allowed', { ...context, from: withdrawal.status, to });
    return false;
  }
  const event = ports.newEvent(move.event, withdrawEventData(withdrawal, move.to, move.from), now);
  if (!(await ports.commitMove(bankOutcomeChanges(withdrawal, move, outcome, event, now)))) {
    logger.info('withdraw outcome ignored: already applied', context);
    return false;
  }
  countMetric(move.to === 'PAID' ? BUSINESS_METRICS.withdrawalsPaid : BUSINESS_METRICS.withdrawalsCanceled);
  logger.info('withdraw moved', { ...context, from: move.from, to: move.to });
  return true;
}

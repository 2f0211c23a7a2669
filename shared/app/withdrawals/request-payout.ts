import type { BankPort } from '../../ports/bank';
import { withBankTimeout } from '../time-limits';
import { logger } from '../../platform/logger';
import type { WithdrawalStore } from '../../ports/withdrawals';

export type RequestPayoutPorts = {
  withdrawals: WithdrawalStore;
  /** The bank a withdrawal names (the configured one when it names none: withdraws recorded before they did). */
  bankFor: (name: string | undefined) => BankPort;
  bankTimeoutMs: number;
  now: () => Date;
};

/**
 * Asks the bank to pay a PENDING withdrawal, the withdraw reference being the bank's idempotency key
 * (asking twice never pays twice); anything but PENDING is left alone. A bank that does not answer within
 * the time limit counts as down (BankUnavailableError: retried on the payout schedule). Once asked, the
 * withdrawal records it and leaves the sweep's index.
 */
export async function requestPayout(ports: RequestPayoutPorts, reference: string): Promise<void> {
  const withdrawal = await ports.withdrawals.get(reference);
  if (!withdrawal || withdrawal.status !== 'PENDING') return;
  const paying = ports.bankFor(withdrawal.bank);
  await withBankTimeout(
    paying.requestPayout({
      reference,
      amountCents: withdrawal.amountCents,
      pixkey: withdrawal.pixkey,
      keytype: withdrawal.keytype,
      description: withdrawal.description,
    }),
    ports.bankTimeoutMs,
  );
  await ports.withdrawals.markBankRequested(reference, ports.now().toISOString());
  logger.info('payout requested from the bank', { reference, bank: paying.name });
}

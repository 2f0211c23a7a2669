import { BankUnavailableError, type BankPort } from '../../ports/bank';

/** Pix keys the simulated bank treats specially (docs/decisions.md). */
export const SIMULATED_BANK_KEYS = {
  /** Every request fails: the withdraw stays PENDING and its message ends in the DLQ. */
  alwaysDown: 'bank-down@example.com',
  /** The first request of each withdraw fails, the next succeeds. */
  flaky: 'bank-flaky@example.com',
  /** The first request of each withdraw never answers (the payout worker's time limit ends it), the next succeeds. */
  slow: 'bank-slow@example.com',
} as const;

/**
 * A bank that accepts payouts in-process. Outcomes are not decided here: the operator CLI
 * (`provider withdraw --reference R --outcome paid|refused`) sends them through the inbound route.
 */
export type SimulatedBank = BankPort & { requests: ReadonlyMap<string, number> };

export function simulatedBank(): SimulatedBank {
  const requests = new Map<string, number>();
  return {
    name: 'simulated',
    requests,
    async requestPayout(request) {
      const attempt = (requests.get(request.reference) ?? 0) + 1;
      requests.set(request.reference, attempt);
      if (request.pixkey === SIMULATED_BANK_KEYS.alwaysDown) throw new BankUnavailableError('The simulated bank is down');
      if (request.pixkey === SIMULATED_BANK_KEYS.flaky && attempt === 1) throw new BankUnavailableError('The simulated bank failed this once');
      if (request.pixkey === SIMULATED_BANK_KEYS.slow && attempt === 1) await new Promise<never>(() => undefined);
    },
  };
}

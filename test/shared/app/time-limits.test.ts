import { describe, expect, it } from 'vitest';
import { BankUnavailableError } from '../../../shared/ports/bank';
import { withBankTimeout } from '../../../shared/app/time-limits';
import { SIMULATED_BANK_KEYS, simulatedBank } from '../../../shared/adapters/bank/simulated';

const request = (reference: string, pixkey: string) => ({ reference, amountCents: 1_000, pixkey, keytype: 'EMAIL' as const });

describe('withBankTimeout', () => {
  it('a bank that does not answer within the limit fails the attempt as an outage (BankUnavailableError)', async () => {
    const never = new Promise<void>(() => undefined);
    const error = await withBankTimeout(never, 30).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BankUnavailableError);
    expect((error as Error).message).toBe('The bank did not answer within 30 ms');
  });

  it('passes an answer or an error given in time through unchanged', async () => {
    expect(await withBankTimeout(Promise.resolve('paid'), 1_000)).toBe('paid');
    const refused = new Error('invalid key');
    await expect(withBankTimeout(Promise.reject(refused), 1_000)).rejects.toBe(refused);
  });
});

describe('the simulated bank’s slow key', () => {
  it('never answers the first request of a withdraw, answers the next at once', async () => {
    const bank = simulatedBank();
    const first = await withBankTimeout(bank.requestPayout(request('WD-SLOW00000001', SIMULATED_BANK_KEYS.slow)), 30).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(BankUnavailableError);
    await expect(withBankTimeout(bank.requestPayout(request('WD-SLOW00000001', SIMULATED_BANK_KEYS.slow)), 1_000)).resolves.toBeUndefined();
    expect(bank.requests.get('WD-SLOW00000001')).toBe(2);
    expect(SIMULATED_BANK_KEYS.slow).toBe('bank-slow@example.com');
  });
});

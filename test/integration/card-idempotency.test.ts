import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createCard } from '../../functions/charges/card';
import { paymentProvider } from '../../shared/wiring/provider-registry';
import { SIMULATED_CARDS, type SimulatedProvider } from '../../shared/adapters/providers/simulated';
import { routes } from '../../shared/http/routes';
import { getRuntime, overrideRuntime } from '../../shared/wiring/runtime';
import { keys } from '../../shared/adapters/dynamo/keys';
import { bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { cardBody } from '../support/charges';
import { invoke } from '../support/invoke';
import { listedItems, storedBalanceCents } from '../support/ledger';

describe('card authorization idempotent at the provider (in-process, the simulated provider)', () => {
  beforeAll(() => {
    useLocalStackEnvironment();
  });

  it('a lost answer (timeout) is verified with the provider at once: approved under the key, so recorded PAID; a retry with the same key authorizes nothing more', async () => {
    const account = await newAccount();
    const auth = bearer(await tokenFor(account));
    const runtime = getRuntime();
    const provider = paymentProvider(runtime.config) as SimulatedProvider;
    const before = provider.authorizations.size;
    const body = cardBody({ amount: 42, quantity: 1, tax: 0, discount: 0, creditcard_number: SIMULATED_CARDS.approvedAnswerLost });
    const key = `card-timeout-${Date.now()}`;
    overrideRuntime({ config: { ...runtime.config, payments: { ...runtime.config.payments, timeoutMs: 300 } } });
    let first;
    try {
      first = await invoke(createCard, routes.createCard, { headers: { ...auth, 'idempotency-key': key }, body });
    } finally {
      overrideRuntime({ config: runtime.config });
    }
    // Issue 25: the timeout never answers "nothing was charged": the provider is asked what it holds under the key.
    expect(first.status, first.body).toBe(200);
    expect(first.json).toMatchObject({ invoice: { status: 'PAID' } });

    const retried = await invoke(createCard, routes.createCard, { headers: { ...auth, 'idempotency-key': key }, body });
    expect(retried.status).toBe(200);
    expect(retried.body).toBe(first.body);
    // One authorization for the two calls: the provider answered the retry with the first decision.
    expect(provider.authorizations.size).toBe(before + 1);
    const invoices = await listedItems(keys.invoiceListPartition(account.account_id));
    expect(invoices).toHaveLength(1);
    const transactionId = (invoices[0]?.card as { transactionId?: string } | undefined)?.transactionId;
    expect([...provider.authorizations.values()].some((a) => a.outcome === 'approved' && a.transactionId === transactionId)).toBe(true);
    expect(provider.voided.has(String(transactionId))).toBe(false);
    expect(await storedBalanceCents(account.account_id)).toBe(4_200);
  });

  it('different keys (or no key) are different authorizations', async () => {
    const account = await newAccount();
    const auth = bearer(await tokenFor(account));
    const provider = paymentProvider(getRuntime().config) as SimulatedProvider;
    const before = provider.authorizations.size;
    const body = cardBody({ amount: 5, quantity: 1, tax: 0, discount: 0 });
    expect((await invoke(createCard, routes.createCard, { headers: { ...auth, 'idempotency-key': `a-${Date.now()}` }, body })).status).toBe(200);
    expect((await invoke(createCard, routes.createCard, { headers: { ...auth, 'idempotency-key': `b-${Date.now()}` }, body })).status).toBe(200);
    expect((await invoke(createCard, routes.createCard, { headers: auth, body })).status).toBe(200);
    expect(provider.authorizations.size).toBe(before + 3);
    expect(await listedItems(keys.invoiceListPartition(account.account_id))).toHaveLength(3);
  });
});

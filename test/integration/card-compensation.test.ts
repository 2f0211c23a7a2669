import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createCard } from '../../functions/charges/card';
import { paymentProvider } from '../../shared/wiring/provider-registry';
import { routes } from '../../shared/http/routes';
import { getRuntime, overrideRuntime } from '../../shared/wiring/runtime';
import { keys } from '../../shared/adapters/dynamo/keys';
import { bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { cardBody } from '../support/charges';
import { invoke } from '../support/invoke';
import { listedItems, storedBalanceCents } from '../support/ledger';

describe('card charge whose record cannot be written (in-process, injected failure)', () => {
  beforeAll(() => {
    useLocalStackEnvironment();
  });

  it('voids the approved authorization, records nothing and credits nothing; a retry with the key charges once', async () => {
    const account = await newAccount();
    const auth = bearer(await tokenFor(account));
    const runtime = getRuntime();
    const provider = paymentProvider(runtime.config) as ReturnType<typeof paymentProvider> & { voided: ReadonlySet<string> };
    const voidedBefore = provider.voided.size;
    overrideRuntime({
      faults: {
        beforeCommit: () => {
          throw new Error('injected: the table is unreachable');
        },
      },
    });
    const key = `card-crash-${Date.now()}`;
    let failed;
    try {
      failed = await invoke(createCard, routes.createCard, { headers: { ...auth, 'idempotency-key': key }, body: cardBody() });
    } finally {
      overrideRuntime({ ...runtime, faults: undefined });
    }
    expect(failed.status).toBe(500);
    expect(failed.json).toMatchObject({ code: 'internal_error' });
    expect(provider.voided.size).toBe(voidedBefore + 1);
    const invoices = await listedItems(keys.invoiceListPartition(account.account_id));
    expect(invoices).toHaveLength(0);
    expect(await storedBalanceCents(account.account_id)).toBe(0);
    const retried = await invoke(createCard, routes.createCard, { headers: { ...auth, 'idempotency-key': key }, body: cardBody() });
    expect(retried.status).toBe(200);
    expect(retried.headers['Idempotent-Replayed']).toBeUndefined();
    expect(await storedBalanceCents(account.account_id)).toBe(19_000);
  });
});

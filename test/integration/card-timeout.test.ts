import { checkoutUpkeepWorker } from '../../shared/platform/queues';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createCard } from '../../functions/charges/card';
import { checkoutUpkeep } from '../../shared/app/checkout/upkeep';
import { upkeepPorts } from '../../shared/wiring/checkout';
import { routes } from '../../shared/http/routes';
import { invoiceByReference } from '../../shared/adapters/dynamo/invoice-lookup';
import { type CardAuthorization, type PaymentProvider, ProviderError } from '../../shared/ports/payment-provider';
import { defaultRegistry } from '../../shared/wiring/provider-registry';
import { simulatedProvider } from '../../shared/adapters/providers/simulated';
import { getRuntime, overrideRuntime, type Runtime } from '../../shared/wiring/runtime';
import { keys } from '../../shared/adapters/dynamo/keys';
import { bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { cardBody } from '../support/charges';
import { invoke } from '../support/invoke';
import { eventsAbout, eventually, listedItems, storedBalanceCents } from '../support/ledger';

/**
 * A card processor that loses answers (issue 25): a timeout never answers "nothing was charged" unless
 * the processor confirmed it; the attempt is recorded (its invoice PENDING) and settled by asking the
 * processor (a retry, with or without its Idempotency-Key, or the checkout upkeep); a retry never
 * authorizes twice. In this process, against the local table, with a provider of its own.
 */
type Mode = 'answer-lost' | 'never-received' | 'normal';

type LossyProvider = PaymentProvider & {
  mode: Mode;
  lookupDown: boolean;
  authorizations: Map<string, CardAuthorization>;
  /** Told of each authorization request as it arrives (before any answer). */
  onCard?: () => void;
};

function lossyProvider(name: string): LossyProvider {
  const base = simulatedProvider({ locationBase: 'http://127.0.0.1:3000' });
  const authorizations = new Map<string, CardAuthorization>();
  const provider: LossyProvider = {
    ...base,
    name,
    mode: 'answer-lost',
    lookupDown: true,
    authorizations,
    charges: {
      ...base.charges,
      async card(request) {
        provider.onCard?.();
        const known = authorizations.get(request.idempotencyKey);
        if (known) return known;
        if (provider.mode === 'never-received') return new Promise<never>(() => undefined);
        const decision: CardAuthorization = { outcome: 'approved', transactionId: `lossy_${randomUUID()}`, status: 1, message: 'Approved' };
        authorizations.set(request.idempotencyKey, decision);
        // Charged, but the answer never comes back.
        if (provider.mode === 'answer-lost') return new Promise<never>(() => undefined);
        return decision;
      },
    },
    async cardAuthorizationStatus(idempotencyKey) {
      if (provider.lookupDown) throw new ProviderError('lookup unavailable');
      const known = authorizations.get(idempotencyKey);
      return known?.outcome === 'approved' ? { outcome: 'approved', transactionId: known.transactionId, status: known.status } : { outcome: 'not_found' };
    },
  };
  return provider;
}

let base: Runtime;

/**
 * The checkout upkeep's ports for this file's runs, which settle API card attempts: the hosted checkouts'
 * index left empty, so a run with this file's provider never asks it about another file's checkouts
 * (their attempts are at the stack's provider: the stack's own upkeep settles them).
 */
function apiCardUpkeepPorts() {
  return { ...upkeepPorts(getRuntime(), checkoutUpkeepWorker), index: { openPartitions: [], unknownPartitions: [], references: async () => [] } };
}

/** A provider of its own, the card charges' provider for `run`, with a short PROVIDER_TIMEOUT_MS. */
async function withLossyProvider(run: (provider: LossyProvider) => Promise<void>): Promise<void> {
  const name = `lossy-${randomUUID().slice(0, 8)}`;
  const provider = lossyProvider(name);
  defaultRegistry.registerPaymentProvider(name, () => provider);
  overrideRuntime({ config: { ...base.config, payments: { ...base.config.payments, cardAndBoletoProvider: name, timeoutMs: 300 } } });
  try {
    await run(provider);
  } finally {
    overrideRuntime({ config: base.config });
  }
}

const approvals = (provider: LossyProvider) => [...provider.authorizations.values()].filter((a) => a.outcome === 'approved').length;

async function customer() {
  const account = await newAccount();
  return { accountId: account.account_id, auth: bearer(await tokenFor(account)) };
}

describe('a card charge whose processor answer is lost', () => {
  beforeAll(() => {
    useLocalStackEnvironment();
    base = getRuntime();
  });

  for (const withKey of [true, false]) {
    it(`${withKey ? 'with' : 'without'} an Idempotency-Key: 502 card_outcome_unknown naming a PENDING invoice (never "nothing was charged"); retries ask again, never authorize twice; settled PAID once`, async () => {
      await withLossyProvider(async (provider) => {
        const { accountId, auth } = await customer();
        const body = cardBody({ amount: 42, quantity: 1, tax: 0, discount: 0 });
        const headers = withKey ? { ...auth, 'idempotency-key': `lost-${randomUUID()}` } : auth;
        const first = await invoke(createCard, routes.createCard, { headers, body });
        expect(first.status).toBe(502);
        expect(first.json).toMatchObject({ code: 'card_outcome_unknown' });
        expect(String((first.json as { error: string }).error)).not.toMatch(/nothing was charged/i);
        const reference = /invoice (INV-[A-Z0-9]+)/.exec(String((first.json as { error: string }).error))?.[1] ?? '';
        expect((await invoiceByReference(getRuntime(), reference))?.status).toBe('PENDING');
        expect(await storedBalanceCents(accountId)).toBe(0);

        // The processor still cannot be asked: the same answer, no new authorization.
        const again = await invoke(createCard, routes.createCard, { headers, body });
        expect(again.status).toBe(502);
        expect(again.json).toMatchObject({ code: 'card_outcome_unknown' });
        expect(approvals(provider)).toBe(1);

        provider.lookupDown = false;
        const settled = await invoke(createCard, routes.createCard, { headers, body });
        expect(settled.status, settled.body).toBe(200);
        expect(settled.json).toMatchObject({ invoice: { reference, status: 'PAID', total: '42.00', transaction: { method: 'creditcard' } } });
        expect(approvals(provider)).toBe(1);
        expect(await storedBalanceCents(accountId)).toBe(4_200);
        const invoices = await listedItems(keys.invoiceListPartition(accountId));
        expect(invoices.map((i) => `${String(i.reference)}:${String(i.status)}`)).toEqual([`${reference}:PAID`]);
        expect((await eventsAbout(accountId, reference)).map((e) => e.type)).toEqual(['invoice.paid']);
        // Later retries answer the recorded charge.
        const later = await invoke(createCard, routes.createCard, { headers, body });
        expect(later.status).toBe(200);
        expect(later.json).toMatchObject({ invoice: { reference, status: 'PAID' } });
        expect(approvals(provider)).toBe(1);
        expect(await storedBalanceCents(accountId)).toBe(4_200);
      });
    }, 60_000);
  }

  it('with no retry at all: the checkout upkeep asks the processor and settles it PAID once (invoice.paid, one credit)', async () => {
    await withLossyProvider(async (provider) => {
      const { accountId, auth } = await customer();
      const body = cardBody({ amount: 7, quantity: 1, tax: 0, discount: 0 });
      const first = await invoke(createCard, routes.createCard, { headers: auth, body });
      expect(first.json).toMatchObject({ code: 'card_outcome_unknown' });
      const reference = /invoice (INV-[A-Z0-9]+)/.exec(String((first.json as { error: string }).error))?.[1] ?? '';
      provider.lookupDown = false;
      await checkoutUpkeep(apiCardUpkeepPorts(), new Date());
      const invoice = await invoiceByReference(getRuntime(), reference);
      expect(invoice?.status).toBe('PAID');
      expect((invoice?.card as { transactionId?: string }).transactionId).toMatch(/^lossy_/);
      expect(await storedBalanceCents(accountId)).toBe(700);
      // A second run, and a retry: nothing moves again.
      await checkoutUpkeep(apiCardUpkeepPorts(), new Date());
      const retry = await invoke(createCard, routes.createCard, { headers: auth, body });
      expect(retry.status).toBe(200);
      expect(approvals(provider)).toBe(1);
      expect(await storedBalanceCents(accountId)).toBe(700);
      expect((await eventsAbout(accountId, reference)).map((e) => e.type)).toEqual(['invoice.paid']);
    });
  }, 60_000);

  it('never received: CANCELED (invoice.canceled) once the request can no longer arrive; then a retry charges, once', async () => {
    await withLossyProvider(async (provider) => {
      provider.mode = 'never-received';
      const { accountId, auth } = await customer();
      const body = cardBody({ amount: 9, quantity: 1, tax: 0, discount: 0 });
      const first = await invoke(createCard, routes.createCard, { headers: auth, body });
      expect(first.json).toMatchObject({ code: 'card_outcome_unknown' });
      const reference = /invoice (INV-[A-Z0-9]+)/.exec(String((first.json as { error: string }).error))?.[1] ?? '';
      provider.lookupDown = false;
      // Not found right away proves nothing (the request may still arrive): it waits 2 × PROVIDER_TIMEOUT_MS.
      // The settler runs at the very instant the answer was lost (the invoice's creation), whatever this machine's load.
      const lostAt = new Date(String((await invoiceByReference(getRuntime(), reference))?.createdAt));
      await checkoutUpkeep(apiCardUpkeepPorts(), lostAt);
      expect((await invoiceByReference(getRuntime(), reference))?.status).toBe('PENDING');
      await checkoutUpkeep(apiCardUpkeepPorts(), new Date(Date.now() + 10_000));
      expect((await invoiceByReference(getRuntime(), reference))?.status).toBe('CANCELED');
      expect((await eventsAbout(accountId, reference)).map((e) => e.type)).toEqual(['invoice.canceled']);
      expect(await storedBalanceCents(accountId)).toBe(0);

      provider.mode = 'normal';
      const retry = await invoke(createCard, routes.createCard, { headers: auth, body });
      expect(retry.status, retry.body).toBe(200);
      expect(approvals(provider)).toBe(1);
      expect(await storedBalanceCents(accountId)).toBe(900);
    });
  }, 60_000);

  it('an error the processor answered, with nothing held under the key, is verified: 502 "nothing was charged", nothing recorded', async () => {
    const { accountId, auth } = await customer();
    const failed = await invoke(createCard, routes.createCard, { headers: auth, body: cardBody({ creditcard_number: '4000000000000119' }) });
    expect(failed.status).toBe(502);
    expect(failed.json).toMatchObject({ code: 'upstream_error', error: expect.stringMatching(/nothing was charged/) });
    expect(await listedItems(keys.invoiceListPartition(accountId))).toEqual([]);
  });
});

/**
 * Issue 44, finding 3: an invocation killed mid-call (Lambda's timeout, a crash) records nothing after
 * its provider call: its attempt stays OPEN. It is in the settler's index from its opening; once the
 * invocation is surely over, the checkout upkeep asks the provider under its key and settles it, and the
 * card is never authorized a second time. The kill is simulated as Lambda does it: the invocation is
 * abandoned while the provider holds its request, and none of its code runs again (its provider call
 * never answers and its limit is beyond the test).
 */
describe('a card charge whose invocation is killed while the processor holds its request', () => {
  beforeAll(() => {
    useLocalStackEnvironment();
    base = getRuntime();
  });

  /** Runs a card charge as an invocation killed once the provider holds its request, two minutes ago (so the settler counts it as over). */
  async function killedMidCall(provider: LossyProvider, headers: Record<string, string>, body: object): Promise<void> {
    const name = provider.name;
    const asked = new Promise<void>((resolve) => {
      provider.onCard = resolve;
    });
    const past = Date.now() - 120_000;
    const started = Date.now();
    overrideRuntime({
      config: { ...base.config, payments: { ...base.config.payments, cardAndBoletoProvider: name, timeoutMs: 600_000 } },
      clock: { now: () => new Date(past + (Date.now() - started)) },
    });
    try {
      // Abandoned, never awaited: the invocation is gone once the provider holds its request.
      void invoke(createCard, routes.createCard, { headers, body }).catch(() => undefined);
      await asked;
    } finally {
      provider.onCard = undefined;
      overrideRuntime({ config: { ...base.config, payments: { ...base.config.payments, cardAndBoletoProvider: name, timeoutMs: 300 } }, clock: base.clock });
    }
  }

  async function withKillableProvider(run: (provider: LossyProvider) => Promise<void>): Promise<void> {
    const name = `killed-${randomUUID().slice(0, 8)}`;
    const provider = lossyProvider(name);
    provider.lookupDown = false;
    defaultRegistry.registerPaymentProvider(name, () => provider);
    try {
      await run(provider);
    } finally {
      overrideRuntime({ config: base.config, clock: base.clock });
    }
  }

  it('authorized before the kill: the upkeep finds the OPEN attempt, records it PAID once (one credit, invoice.paid); a retry answers it, never a second authorization', async () => {
    await withKillableProvider(async (provider) => {
      const { accountId, auth } = await customer();
      const body = cardBody({ amount: 11, quantity: 1, tax: 0, discount: 0 });
      await killedMidCall(provider, auth, body);
      expect(approvals(provider)).toBe(1);
      // The killed invocation recorded nothing after its provider call; the stack's own upkeep may already have
      // recorded the OPEN attempt as UNKNOWN with a PENDING invoice (below): nothing is PAID yet.
      expect((await listedItems(keys.invoiceListPartition(accountId))).filter((item) => item.status !== 'PENDING')).toEqual([]);

      // The stack's own upkeep (another process, every 2 s) may take the OPEN attempt to UNKNOWN between this run's two
      // reads of the index (it cannot ask this process's provider): runs go on until the attempt is settled; the guarantee
      // below is the state, never one run's count.
      const invoices = await eventually(
        async () => {
          await checkoutUpkeep(apiCardUpkeepPorts(), new Date());
          return listedItems(keys.invoiceListPartition(accountId));
        },
        (listed) => listed.some((i) => i.status === 'PAID'),
        30_000,
        200,
      );
      expect(invoices.map((i) => String(i.status))).toEqual(['PAID']);
      const reference = String(invoices[0]?.reference);
      expect((await invoiceByReference(getRuntime(), reference))?.card).toMatchObject({ transactionId: expect.stringMatching(/^lossy_/), last4: '1111' });
      expect(await storedBalanceCents(accountId)).toBe(1_100);
      expect((await eventsAbout(accountId, reference)).map((e) => e.type)).toEqual(['invoice.paid']);

      // The next run moves nothing; the client's retry of the same charge gets the recorded one.
      await checkoutUpkeep(apiCardUpkeepPorts(), new Date());
      provider.mode = 'normal';
      const retry = await invoke(createCard, routes.createCard, { headers: auth, body });
      expect(retry.status, retry.body).toBe(200);
      expect(retry.json).toMatchObject({ invoice: { reference, status: 'PAID' } });
      expect(approvals(provider)).toBe(1);
      expect(provider.authorizations.size).toBe(1);
      expect(await storedBalanceCents(accountId)).toBe(1_100);
    });
  }, 60_000);

  it('never received by the processor: the upkeep settles the attempt (nothing charged; nothing recorded, or canceled); the retry charges once', async () => {
    await withKillableProvider(async (provider) => {
      provider.mode = 'never-received';
      const { accountId, auth } = await customer();
      const body = cardBody({ amount: 13, quantity: 1, tax: 0, discount: 0 });
      await killedMidCall(provider, auth, body);
      expect(approvals(provider)).toBe(0);

      // The stack's own upkeep (another process, every 2 s, which cannot ask this process's provider) may record the
      // OPEN attempt as UNKNOWN with a PENDING invoice before this run drops it: runs go on until nothing is PENDING,
      // and the guarantee is the state (nothing charged; nothing recorded, or that invoice CANCELED), never one run's.
      const listed = await eventually(
        async () => {
          await checkoutUpkeep(apiCardUpkeepPorts(), new Date());
          return listedItems(keys.invoiceListPartition(accountId));
        },
        (items) => items.every((item) => item.status !== 'PENDING'),
        30_000,
        200,
      );
      expect(listed.map((item) => String(item.status)).filter((status) => status !== 'CANCELED')).toEqual([]);
      expect(approvals(provider)).toBe(0);
      expect(await storedBalanceCents(accountId)).toBe(0);

      provider.mode = 'normal';
      const retry = await invoke(createCard, routes.createCard, { headers: auth, body });
      expect(retry.status, retry.body).toBe(200);
      expect(approvals(provider)).toBe(1);
      expect(await storedBalanceCents(accountId)).toBe(1_300);
    });
  }, 60_000);
});

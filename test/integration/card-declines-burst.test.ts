import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createCard } from '../../functions/charges/card';
import { routes } from '../../shared/http/routes';
import { defaultRegistry, paymentProvider } from '../../shared/wiring/provider-registry';
import { type SimulatedProvider, simulatedProvider } from '../../shared/adapters/providers/simulated';
import type { PaymentProvider } from '../../shared/ports/payment-provider';
import { getRuntime, overrideRuntime, type Runtime } from '../../shared/wiring/runtime';
import { bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { approvedTestCard, cardBody, declinedTestCard } from '../support/charges';
import { cardFields, enterCheckout, entryForm, openPage } from '../support/checkout';
import { invoke } from '../support/invoke';
import { invokeRoute } from '../support/invoke-route';

/**
 * Issue 43, finding 2: the card-testing caps hold under a burst, as the outside probe fired it. Each
 * attempt takes a slot in the card's, the merchant's (and the checkout's) logs in one conditional
 * write before the provider is asked: N concurrent attempts admit at most the cap, and no decline is
 * lost. The guarantee is asserted by counts (answers, the provider's calls), never by timing.
 */
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
let base: Runtime;

async function withConfig(config: Partial<Runtime['config']>, run: () => Promise<void>): Promise<void> {
  overrideRuntime({ config: { ...base.config, ...config } });
  try {
    await run();
  } finally {
    overrideRuntime({ config: base.config });
  }
}

const provider = () => paymentProvider(getRuntime().config) as SimulatedProvider;

describe('card-testing caps under a burst (in this process, the real local table)', () => {
  beforeAll(() => {
    useLocalStackEnvironment();
    base = getRuntime();
  });

  it("30 card charges at one merchant with 30 different declined cards at once (merchant cap 30): all 30 declined and all 30 kept, so the merchant's next attempt is refused without asking the provider", async () => {
    await withConfig(
      { cardDeclines: { ...base.config.cardDeclines, perMerchantPerHour: 30 }, rateLimits: { ...base.config.rateLimits, account: 100_000 } },
      async () => {
        const account = await newAccount();
        const auth = bearer(await tokenFor(account));
        const asked = provider().authorizations.size;
        const answers = await Promise.all(
          Array.from({ length: 30 }, () => invoke(createCard, routes.createCard, { headers: auth, body: cardBody({ creditcard_number: declinedTestCard() }) })),
        );
        const codes = answers.map((a) => `${a.status} ${String((a.json as { code?: string }).code ?? '')}`);
        expect(
          codes.filter((c) => c === '400 card_declined'),
          codes.join(', '),
        ).toHaveLength(30);
        expect(provider().authorizations.size - asked).toBe(30);
        // The log kept every one of the 30: the 31st attempt, with an approving card, is refused and the provider not asked.
        const refused = await invoke(createCard, routes.createCard, { headers: auth, body: cardBody({ creditcard_number: approvedTestCard() }) });
        expect(refused.status, refused.body).toBe(429);
        expect(refused.json).toMatchObject({ code: 'card_declines_exceeded' });
        expect(Number(refused.headers['Retry-After'])).toBeGreaterThan(3000);
        expect(provider().authorizations.size - asked).toBe(30);
      },
    );
  }, 120_000);

  it('a retry with the same Idempotency-Key of a charge whose request died after taking its slot: admitted for its own slot at a full cap (1 per card), no second slot; another charge of the card is refused meanwhile', async () => {
    const name = `crashing-${randomUUID().slice(0, 8)}`;
    const inner = simulatedProvider({ locationBase: 'http://127.0.0.1:3000' });
    let crash = true;
    const crashing: PaymentProvider = {
      ...inner,
      name,
      charges: {
        ...inner.charges,
        async card(request) {
          // The function dies after its slot was taken and before the provider answered (not a provider error: nobody knows).
          if (crash) throw new TypeError('the function died');
          return inner.charges.card(request);
        },
      },
    };
    defaultRegistry.registerPaymentProvider(name, () => crashing);
    await withConfig(
      { cardDeclines: { ...base.config.cardDeclines, perCardPerHour: 1 }, payments: { ...base.config.payments, cardAndBoletoProvider: name } },
      async () => {
        const account = await newAccount();
        const auth = bearer(await tokenFor(account));
        const card = approvedTestCard();
        const key = `slot-${randomUUID()}`;
        const charge = (headers: Record<string, string>, amount: number) =>
          invoke(createCard, routes.createCard, { headers, body: cardBody({ creditcard_number: card, amount }) });
        expect((await charge({ ...auth, 'idempotency-key': key }, 10)).status).toBe(500);
        // The card's log holds the dead request's slot: another charge of the card is refused unasked.
        const other = await charge({ ...auth, 'idempotency-key': `other-${randomUUID()}` }, 11);
        expect(other.status, other.body).toBe(429);
        crash = false;
        const retried = await charge({ ...auth, 'idempotency-key': key }, 10);
        expect(retried.status, retried.body).toBe(200);
        expect(retried.json).toMatchObject({ invoice: { status: 'PAID' } });
        // Approved: its one slot given back, so the card is admitted again.
        expect((await charge({ ...auth, 'idempotency-key': `again-${randomUUID()}` }, 12)).status).toBe(200);
      },
    );
  }, 60_000);

  it('12 checkouts posting the same declined card at once (cap 5 per card per hour): the provider declines at most 5, the others are refused (429) unasked', async () => {
    await withConfig({ cardDeclines: { ...base.config.cardDeclines, perCardPerHour: 5 } }, () => sameCardBurst());
  }, 120_000);
});

/** 12 checkouts of one merchant, each posting the same declined card at once. */
async function sameCardBurst(): Promise<void> {
  const account = await newAccount();
  const card = declinedTestCard();
  const sales = [];
  for (let i = 0; i < 12; i += 1) {
    const { reply, page } = await enterCheckout(entryForm(account));
    expect(reply.status, reply.text).toBe(303);
    const [, , reference = '', token = ''] = page.split('/');
    sales.push({ reference, token, opened: await openPage(page) });
  }
  const asked = provider().authorizations.size;
  const answers = await Promise.all(
    sales.map((s) =>
      invokeRoute(routes.checkoutCard, {
        params: { reference: s.reference, token: s.token },
        headers: { ...FORM, cookie: s.opened.cookie },
        body: new URLSearchParams(cardFields(s.opened.csrf, { creditcard_number: card })).toString(),
      }),
    ),
  );
  const statuses = answers.map((a) => a.status);
  const declined = answers.filter((a) => a.status === 400 && a.body.includes('recusado')).length;
  const refused = answers.filter((a) => a.status === 429);
  expect(declined, statuses.join(', ')).toBeLessThanOrEqual(5);
  expect(declined).toBeGreaterThan(0);
  expect(declined + refused.length, statuses.join(', ')).toBe(12);
  expect(provider().authorizations.size - asked).toBe(declined);
  for (const r of refused) expect(r.body).toContain('tentativas recusadas demais');
}

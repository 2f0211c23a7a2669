import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { CARD_FORM_LOCKED } from '../../shared/http/checkout/page-answer';
import { routes } from '../../shared/http/routes';
import { SIMULATED_CARDS } from '../../shared/adapters/providers/simulated';
import { getRuntime, overrideRuntime } from '../../shared/wiring/runtime';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, bearer, newAccount, type Reply, tokenFor, useLocalStackEnvironment } from '../support/api';
import { approvedTestCard, cardBody, declinedTestCard } from '../support/charges';
import { invoke } from '../support/invoke';
import { handler as createCard } from '../../functions/charges/card';
import { cardFields, enterCheckout, entryForm, merchantCheckout, openPage, postForm } from '../support/checkout';
import { invokeRoute } from '../support/invoke-route';
import { notification, notify } from '../support/provider';

/**
 * Card testing stopped (issue 31): declined card attempts are capped per checkout (CARD_DECLINES_PER_CHECKOUT,
 * over HTTP against the local stack), per card across checkouts and addresses, and per merchant (in this
 * process with shrunk caps: every call comes from another address). At a cap the attempt is refused
 * without asking the provider (an approving card is refused too), and Pix still pays.
 */
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

type Sale = { page: string; txRef: string; reference: string; token: string; auth: Record<string, string> };

async function sale(account: Awaited<ReturnType<typeof newAccount>>): Promise<Sale> {
  const form = entryForm(account);
  const { reply, page } = await enterCheckout(form);
  expect(reply.status, reply.text).toBe(303);
  const [, , reference = '', token = ''] = page.split('/');
  return { page, txRef: form.tx_ref ?? '', reference, token, auth: bearer(await tokenFor(account)) };
}

/** The checkout's Pix charge paid by a provider notification. */
async function payByPix(s: Sale): Promise<void> {
  const store = accountStore();
  const checkout = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.checkout(s.reference), ConsistentRead: true }))).Item;
  const invoice = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.invoice(String(checkout?.pixReference)), ConsistentRead: true })))
    .Item;
  const txid = String((invoice?.pix as { txid?: string } | undefined)?.txid);
  expect((await notify(notification('pix-paid', { txid }))).json).toEqual({ received: true, applied: true });
}

const statusOf = async (s: Sale) => ((await merchantCheckout(s.auth, s.txRef)).json as { checkout: { status: string } }).checkout.status;

/** A card post through the handler in this process (its caps as overridden), from a new address each time. */
async function payInProcess(s: Sale, number: string): Promise<{ status: number; text: string; headers: Record<string, string> }> {
  const opened = await openPage(s.page);
  const reply = await invokeRoute(routes.checkoutCard, {
    params: { reference: s.reference, token: s.token },
    headers: { ...FORM, cookie: opened.cookie },
    body: new URLSearchParams(cardFields(opened.csrf, { creditcard_number: number })).toString(),
  });
  return { status: reply.status, text: reply.body, headers: reply.headers };
}

describe('declined card attempts, per checkout (HTTP, the stack’s cap of 3)', () => {
  it('the 4th attempt after 3 declines is refused without asking the provider (an approving card stays unpaid); the page locks the card form; Pix still pays', async () => {
    const s = await sale(await newAccount());
    const first = await openPage(s.page);
    for (let i = 0; i < 3; i += 1) {
      const declined: Reply = await postForm(`${s.page}/card`, cardFields(first.csrf, { creditcard_number: declinedTestCard() }), { cookie: first.cookie });
      expect(declined.status, `decline ${i + 1}`).toBe(400);
      expect(declined.text).toContain('recusado');
    }
    const opened = await openPage(s.page, first.cookie);
    expect(opened.reply.text).toContain(CARD_FORM_LOCKED);
    expect(opened.reply.text).not.toContain('id="card-form"');
    // A post with the page's token from before the lock: refused before the provider is asked.
    const approving = await postForm(`${s.page}/card`, cardFields(first.csrf, { creditcard_number: SIMULATED_CARDS.approved }), { cookie: first.cookie });
    expect(approving.status).toBe(400);
    expect(approving.text).toContain(CARD_FORM_LOCKED);
    expect(await statusOf(s)).toBe('PENDING');
    // Pix is not affected: the page still offers it, and it pays the checkout.
    expect(opened.reply.text).toContain('id="pix-copy"');
    await payByPix(s);
    expect(await statusOf(s)).toBe('PAID');
  });
});

describe('declined card attempts, per card and per merchant (in this process, shrunk caps)', () => {
  let base: ReturnType<typeof getRuntime>;
  beforeAll(() => {
    useLocalStackEnvironment();
    base = getRuntime();
  });
  const withCaps = async (caps: Partial<ReturnType<typeof getRuntime>['config']['cardDeclines']>, run: () => Promise<void>) => {
    overrideRuntime({ config: { ...base.config, cardDeclines: { ...base.config.cardDeclines, ...caps } } });
    try {
      await run();
    } finally {
      overrideRuntime({ config: base.config });
    }
  };

  it('one card declined 3 times across checkouts and addresses: its 4th attempt is refused (429, Retry-After), anywhere; another card still pays', async () => {
    await withCaps({ perCardPerHour: 3, perCheckout: 10 }, async () => {
      const account = await newAccount();
      const card = declinedTestCard();
      const [a, b, c] = [await sale(account), await sale(account), await sale(account)];
      expect((await payInProcess(a, card)).status).toBe(400);
      expect((await payInProcess(a, card)).status).toBe(400);
      expect((await payInProcess(b, card)).status).toBe(400);
      const refused = await payInProcess(c, card);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['Retry-After'])).toBeGreaterThan(3000);
      expect(refused.text).toContain('tentativas recusadas demais');
      // Another merchant's checkout refuses the same card too (the fingerprint is the card's, not the merchant's).
      expect((await payInProcess(await sale(await newAccount()), card)).status).toBe(429);
      // Another card pays (a card of its own: the suite's shared test card may hold slots of answers lost elsewhere).
      expect((await payInProcess(c, approvedTestCard())).status).toBe(303);
      expect(await statusOf(c)).toBe('PAID');
    });
  }, 60_000);

  it("a merchant's 3 declines within the hour: its next card attempt is refused even with an approving card; another merchant's is not; Pix still pays", async () => {
    await withCaps({ perMerchantPerHour: 3, perCheckout: 10 }, async () => {
      const account = await newAccount();
      const [a, b] = [await sale(account), await sale(account)];
      for (const s of [a, a, b]) expect((await payInProcess(s, declinedTestCard())).status).toBe(400);
      const c = await sale(account);
      const refused = await payInProcess(c, SIMULATED_CARDS.approved);
      expect(refused.status).toBe(429);
      expect(await statusOf(c)).toBe('PENDING');
      const other = await sale(await newAccount());
      expect((await payInProcess(other, approvedTestCard())).status).toBe(303);
      // Pix pays the refused checkout.
      await payByPix(c);
      expect(await statusOf(c)).toBe('PAID');
    });
  }, 60_000);

  it('POST /api/creditcard/create: the same caps (a card declined twice is refused the third time, 429 card_declines_exceeded, the processor not asked); another card pays', async () => {
    await withCaps({ perCardPerHour: 2 }, async () => {
      const account = await newAccount();
      const auth = bearer(await tokenFor(account));
      const card = declinedTestCard();
      const charge = (number: string) => invoke(createCard, routes.createCard, { headers: auth, body: cardBody({ creditcard_number: number }) });
      expect((await charge(card)).status).toBe(400);
      expect((await charge(card)).status).toBe(400);
      const refused = await charge(card);
      expect(refused.status).toBe(429);
      expect(refused.json).toMatchObject({ code: 'card_declines_exceeded' });
      expect(Number(refused.headers['Retry-After'])).toBeGreaterThan(3000);
      expect((await charge(approvedTestCard())).status).toBe(200);
    });
  }, 60_000);
});

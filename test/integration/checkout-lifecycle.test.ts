import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { PROVIDER_TIMEOUT_DEFAULT_MS } from '../../shared/domain/time-budgets';
import { describe, expect, it, vi } from 'vitest';
import { handler as checkoutUpkeep } from '../../functions/workers/checkout-upkeep';
import type { IssuedKeys } from '../../shared/adapters/dynamo/accounts';
import { randomUUID } from 'node:crypto';
import { checkoutCardProviderKey } from '../../shared/app/checkout/checkout-payments';
import { checkoutCardPorts } from '../../shared/wiring/checkout';
import { SWEEP_INDEX } from '../../shared/adapters/dynamo/sweep-index';
import { ProviderError } from '../../shared/ports/payment-provider';
import { paymentProvider } from '../../shared/wiring/provider-registry';
import { SIMULATED_CARDS, type SimulatedProvider } from '../../shared/adapters/providers/simulated';
import { routes } from '../../shared/http/routes';
import { getRuntime, overrideRuntime } from '../../shared/wiring/runtime';
import type { Db, Item } from '../../shared/adapters/dynamo/dynamo';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, bearer, call, newAccount, type Reply, tokenFor, useLocalStackEnvironment } from '../support/api';
import { cardFields, type CheckoutFields, enterCheckout, entryForm, merchantCheckout, openPage, postForm } from '../support/checkout';
import { invokeRoute } from '../support/invoke-route';
import { availableBalance, eventually, eventsAbout, listedItems, outboxEventsOf, type OutboxEvent, storedBalanceCents } from '../support/ledger';
import { notification, notify } from '../support/provider';

/**
 * The hosted checkout's payments and states (issue 10, "Checkout page" and "Order events"): card
 * declined then approved, Pix by notification, a checkout paid twice, concurrent payments, lost
 * answers (UNKNOWN) settled by the upkeep, abandonment by the upkeep, and the order events that follow
 * the invoice behind an order.
 */

/** The stack's PROVIDER_TIMEOUT_MS (test/support/global-setup.ts leaves the default: shared/domain/time-budgets.ts). */
const PROVIDER_TIMEOUT_MS = PROVIDER_TIMEOUT_DEFAULT_MS;
/** The stack's upkeep runs every 2 s; a busy 2-core CI machine gets plenty of runs' worth of slack. */
const UPKEEP_WAIT_MS = 40_000;
const FORM_TYPE = 'application/x-www-form-urlencoded';

type Sale = { keys: IssuedKeys; auth: Record<string, string>; form: CheckoutFields; txRef: string; page: string; reference: string };

/** A fresh account and one checkout of it (the entry form's defaults: 2 × 49.90 = 99.80). */
async function newSale(overrides: Record<string, string> = {}): Promise<Sale> {
  const account = await newAccount();
  const auth = bearer(await tokenFor(account));
  return saleOf(account, auth, overrides);
}

async function saleOf(account: IssuedKeys, auth: Record<string, string>, overrides: Record<string, string> = {}): Promise<Sale> {
  const form = entryForm(account, overrides);
  const { reply, page } = await enterCheckout(form);
  expect(reply.status, reply.text).toBe(303);
  const [, , reference = ''] = page.split('/');
  return { keys: account, auth, form, txRef: form.tx_ref ?? '', page, reference };
}

async function read(key: Record<string, string>): Promise<Item> {
  const store = accountStore();
  return (await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }))).Item ?? {};
}

const checkoutRecord = (reference: string) => read(keys.checkout(reference));
const invoiceRecord = (reference: string) => read(keys.invoice(reference));

async function balanceCents(accountId: string): Promise<number> {
  return storedBalanceCents(accountId);
}

/** The Pix charge created with the checkout. */
async function pixOf(sale: Sale): Promise<{ reference: string; txid: string }> {
  const reference = String((await checkoutRecord(sale.reference)).pixReference);
  const pix = (await invoiceRecord(reference)).pix as { txid?: string } | undefined;
  expect(pix?.txid).toBeTypeOf('string');
  return { reference, txid: String(pix?.txid) };
}

/** Every invoice of the sale (invoice_no = tx_ref), read straight from the table. */
async function saleInvoices(sale: Sale): Promise<Item[]> {
  const listed = await listedItems(keys.invoiceListPartition(sale.keys.account_id));
  const references = listed.map((item) => String(item.reference));
  const items = await Promise.all(references.map((reference) => invoiceRecord(reference)));
  return items.filter((item) => item.invoiceNo === sale.txRef);
}

const typesOf = (events: OutboxEvent[]) => events.map((event) => event.type).sort();

/** The order object of an order event. */
const orderOf = (event: OutboxEvent | undefined) => (event?.data.order ?? {}) as Record<string, unknown>;

async function orderEvents(sale: Sale): Promise<OutboxEvent[]> {
  return (await eventsAbout(sale.keys.account_id, sale.reference)).filter((event) => event.type.startsWith('order.'));
}

function payCard(sale: Sale, opened: { cookie: string; csrf: string }, number: string = SIMULATED_CARDS.approved): Promise<Reply> {
  return postForm(`${sale.page}/card`, cardFields(opened.csrf, { creditcard_number: number }), { cookie: opened.cookie });
}

function expectCallback(reply: Reply, sale: Sale): void {
  expect(reply.status, reply.text).toBe(303);
  const back = new URL(String(reply.headers.location));
  expect(back.origin + back.pathname).toBe(sale.form.callback_url);
  expect(back.searchParams.get('tx_ref')).toBe(sale.txRef);
  expect(back.searchParams.get('status')).toBe('PAID');
}

async function merchantView(sale: Sale): Promise<Record<string, unknown>> {
  const reply = await merchantCheckout(sale.auth, sale.txRef);
  expect(reply.status, reply.text).toBe(200);
  return (reply.json as { checkout: Record<string, unknown> }).checkout;
}

describe('checkout payments', () => {
  it('card declined → 400 page, still PENDING; then approved → 303 to callback_url; one credit, one invoice.paid, one order.paid (spec 6.1)', async () => {
    const sale = await newSale({ product_reference: 'SKU-77', product_name: 'Camiseta azul M' });
    const opened = await openPage(sale.page);
    const declined = await payCard(sale, opened, SIMULATED_CARDS.declined);
    expect(declined.status, declined.text).toBe(400);
    expect(String(declined.headers['content-type'])).toMatch(/^text\/html/);
    expect(declined.text).toContain('Pagamento recusado pelo emissor do cartão');
    expect(declined.text).toContain('name="csrf_token"');
    expect(await merchantView(sale)).toMatchObject({ status: 'PENDING', payment_type: null });

    const approved = await payCard(sale, opened);
    expectCallback(approved, sale);
    const checkout = await merchantView(sale);
    expect(checkout).toMatchObject({ status: 'PAID', payment_type: 'creditcard' });
    expect(await availableBalance(sale.auth)).toBe('99.80');

    const cardReference = String((await checkoutRecord(sale.reference)).invoiceReference);
    const events = await outboxEventsOf(sale.keys.account_id);
    expect(typesOf(events)).toEqual(['invoice.paid', 'order.paid']);
    expect(events.find((event) => event.type === 'invoice.paid')?.data.invoice).toMatchObject({ reference: cardReference, status: 'PAID', total: '99.80' });
    const order = orderOf(events.find((event) => event.type === 'order.paid'));
    expect(order).toMatchObject({
      reference: sale.reference,
      status: 'PAID',
      total: '99.80',
      quantity: 2,
      product: { reference: 'SKU-77', name: 'Camiseta azul M' },
      customer: { name: 'Ana Silva', email: 'ana@example.com' },
    });
    expect(Number.isNaN(Date.parse(String(order.paid_at)))).toBe(false);
    // The Pix charge of the checkout stays unpaid.
    expect((await invoiceRecord((await pixOf(sale)).reference)).status).toBe('PENDING');
  });

  it('Pix paid by notification: PAID by pix, invoice.paid and order.paid once, the status route sends the page on; a duplicate changes nothing', async () => {
    const sale = await newSale();
    const pix = await pixOf(sale);
    const paid = await notify(notification('pix-paid', { txid: pix.txid }));
    expect(paid.status, paid.text).toBe(200);
    expect(paid.json).toEqual({ received: true, applied: true });
    expect(await merchantView(sale)).toMatchObject({ status: 'PAID', payment_type: 'pix' });

    const status = await call('GET', `${sale.page}/status`);
    expect(status.status, status.text).toBe(200);
    const answer = status.json as { status: string; redirect_url: string | null };
    expect(answer.status).toBe('PAID');
    const redirect = new URL(String(answer.redirect_url));
    expect(redirect.origin + redirect.pathname).toBe(sale.form.callback_url);
    expect(redirect.searchParams.get('tx_ref')).toBe(sale.txRef);
    expect(redirect.searchParams.get('status')).toBe('PAID');

    const before = await outboxEventsOf(sale.keys.account_id);
    expect(typesOf(before)).toEqual(['invoice.paid', 'order.paid']);
    expect(orderOf(before.find((event) => event.type === 'order.paid'))).toMatchObject({ reference: sale.reference, status: 'PAID', total: '99.80' });
    const duplicate = await notify(notification('pix-paid', { txid: pix.txid }));
    expect(duplicate.json).toEqual({ received: true, applied: false });
    expect(await outboxEventsOf(sale.keys.account_id)).toHaveLength(2);
    expect(await availableBalance(sale.auth)).toBe('99.80');
  });

  it('paid twice (card, then the Pix of the same checkout): the checkout stays paid by card, one order.paid, the Pix is PAID on its own', async () => {
    const sale = await newSale();
    const opened = await openPage(sale.page);
    expectCallback(await payCard(sale, opened), sale);
    const cardReference = String((await checkoutRecord(sale.reference)).invoiceReference);
    const pix = await pixOf(sale);
    const paid = await notify(notification('pix-paid', { txid: pix.txid }));
    expect(paid.json).toEqual({ received: true, applied: true });

    const checkout = await checkoutRecord(sale.reference);
    expect(checkout).toMatchObject({ status: 'PAID', paymentType: 'creditcard', invoiceReference: cardReference });
    expect(cardReference).not.toBe(pix.reference);
    expect((await invoiceRecord(pix.reference)).status).toBe('PAID');
    expect(typesOf(await orderEvents(sale))).toEqual(['order.paid']);
    expect(typesOf(await eventsAbout(sale.keys.account_id, pix.reference))).toEqual(['invoice.paid']);
    expect(await availableBalance(sale.auth)).toBe('199.60');
  });
});

describe('concurrent payments of one checkout', () => {
  it('10 card submissions at once (same cookie and csrf) and a Pix notification: PAID once, one order.paid, balance = the PAID invoices', async () => {
    const sale = await newSale();
    const opened = await openPage(sale.page);
    const pix = await pixOf(sale);
    const [notified, ...cards] = await Promise.all([
      notify(notification('pix-paid', { txid: pix.txid })),
      ...Array.from({ length: 10 }, () => payCard(sale, opened)),
    ]);
    expect(notified?.status, notified?.text).toBe(200);
    for (const reply of cards) expect([303, 409], reply.text).toContain(reply.status);

    const checkout = await checkoutRecord(sale.reference);
    expect(checkout.status).toBe('PAID');
    expect(typesOf(await orderEvents(sale))).toEqual(['order.paid']);
    const invoices = await saleInvoices(sale);
    const paid = invoices.filter((invoice) => invoice.status === 'PAID');
    // The Pix was pending: its notification is applied whoever wins (paying the checkout, or on its own).
    expect(paid.filter((invoice) => invoice.method === 'pix').map((invoice) => invoice.reference)).toEqual([pix.reference]);
    const cardsPaid = paid.filter((invoice) => invoice.method === 'creditcard');
    expect(cardsPaid.length).toBeLessThanOrEqual(1);
    expect(String(checkout.invoiceReference)).toBe(checkout.paymentType === 'pix' ? pix.reference : String(cardsPaid[0]?.reference));
    expect(cardsPaid).toHaveLength(checkout.paymentType === 'creditcard' ? 1 : 0);
    expect(await balanceCents(sale.keys.account_id)).toBe(paid.reduce((sum, invoice) => sum + Number(invoice.totalCents), 0));
    expect(typesOf(await outboxEventsOf(sale.keys.account_id))).toEqual([...paid.map(() => 'invoice.paid'), 'order.paid'].sort());
  });

  it('in-process, 10 card submissions at once: the recorded authorization stays charged, every approved one left unrecorded is voided', async () => {
    useLocalStackEnvironment();
    const provider = paymentProvider(getRuntime().config) as SimulatedProvider;
    const sale = await newSale();
    const opened = await openPage(sale.page);
    const token = sale.page.split('/')[3] ?? '';
    const body = new URLSearchParams(cardFields(opened.csrf)).toString();
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        invokeRoute(routes.checkoutCard, { params: { reference: sale.reference, token }, headers: { 'content-type': FORM_TYPE, cookie: opened.cookie }, body }),
      ),
    );
    for (const reply of replies) expect([303, 409], reply.body).toContain(reply.status);

    const checkout = await checkoutRecord(sale.reference);
    expect(checkout).toMatchObject({ status: 'PAID', paymentType: 'creditcard' });
    const recorded = ((await invoiceRecord(String(checkout.invoiceReference))).card as { transactionId?: string } | undefined)?.transactionId;
    expect(recorded).toBeTypeOf('string');
    // Every attempt number the checkout used (a voided key moves it to the next one).
    const approved = Array.from({ length: Number(checkout.cardAttempt ?? 0) + 1 }, (_, attempt) =>
      provider.authorizations.get(checkoutCardProviderKey(sale.reference, attempt)),
    ).flatMap((authorization) => (authorization?.outcome === 'approved' ? [authorization.transactionId] : []));
    expect(approved).toContain(recorded);
    expect(provider.voided.has(String(recorded)), 'the authorization behind the PAID card invoice was voided').toBe(false);
    for (const transactionId of approved.filter((id) => id !== recorded)) expect(provider.voided.has(transactionId)).toBe(true);
    expect(await balanceCents(sale.keys.account_id)).toBe(9980);
    expect(typesOf(await orderEvents(sale))).toEqual(['order.paid']);
  });
});

describe('lost answers: UNKNOWN until the provider tells', () => {
  it('approved but the answer never comes → 502 page, UNKNOWN; the upkeep asks the provider → PAID, one order.paid, one credit', async () => {
    const sale = await newSale();
    const opened = await openPage(sale.page);
    const sentAt = Date.now();
    const lost = await payCard(sale, opened, SIMULATED_CARDS.approvedAnswerLost);
    expect(lost.status, lost.text).toBe(502);
    expect(lost.text).toContain('notice-unknown');
    expect(lost.text).toContain('Não recebemos a resposta da operadora do cartão');
    expect(lost.text).toContain('data-status="UNKNOWN"');
    const right = await checkoutRecord(sale.reference);
    // UNKNOWN, unless the stack's upkeep (every 2 s) already asked the provider and recorded the payment.
    if (right.status === 'PAID') expect(Date.parse(String(right.paidAt))).toBeGreaterThanOrEqual(sentAt + PROVIDER_TIMEOUT_MS);
    else expect(right).toMatchObject({ status: 'UNKNOWN', unknownAttempt: { brand: 'visa', last4: '0259' } });

    const settled = await eventually(
      () => checkoutRecord(sale.reference),
      (item) => item.status === 'PAID',
      UPKEEP_WAIT_MS,
      250,
    );
    expect(settled).toMatchObject({ status: 'PAID', paymentType: 'creditcard' });
    expect(settled.unknownAttempt).toBeUndefined();
    expect(typesOf(await orderEvents(sale))).toEqual(['order.paid']);
    const cards = (await saleInvoices(sale)).filter((invoice) => invoice.method === 'creditcard');
    expect(cards.map((invoice) => [invoice.reference, invoice.status])).toEqual([[settled.invoiceReference, 'PAID']]);
    expect(await availableBalance(sale.auth)).toBe('99.80');
    const receipt = await call('GET', sale.page);
    expect(receipt.text).toMatch(/id="status"[^>]*>Pagamento confirmado</);
  }, 90_000);

  it('provider error → UNKNOWN; PENDING again after the grace (2 × timeout); a new card attempt works', async () => {
    const sale = await newSale();
    const opened = await openPage(sale.page);
    const failed = await payCard(sale, opened, SIMULATED_CARDS.providerError);
    expect(failed.status, failed.text).toBe(502);
    expect(failed.text).toContain('notice-unknown');
    expect(await checkoutRecord(sale.reference)).toMatchObject({ status: 'UNKNOWN', cardAttempt: 0 });

    const reopened = await eventually(
      () => checkoutRecord(sale.reference),
      (item) => item.status !== 'UNKNOWN',
      UPKEEP_WAIT_MS,
      250,
    );
    expect(reopened).toMatchObject({ status: 'PENDING', cardAttempt: 1 });
    expect(reopened.unknownAttempt).toBeUndefined();
    expect(await balanceCents(sale.keys.account_id)).toBe(0);

    expectCallback(await payCard(sale, opened), sale);
    expect(await merchantView(sale)).toMatchObject({ status: 'PAID', payment_type: 'creditcard' });
    expect(await availableBalance(sale.auth)).toBe('99.80');
    expect(typesOf(await orderEvents(sale))).toEqual(['order.paid']);
  }, 90_000);
});

/**
 * Issue 44: a card form's invocation killed mid-call (Lambda's timeout, a crash) records nothing after its
 * claim. The claim itself records the attempt, in the upkeep's UNKNOWN partition, before the provider is
 * asked: here the claim is made exactly as the card form makes it (same change, same commit, minutes
 * ago, its lease run out), and nothing after it, as a killed invocation leaves it. The stack's upkeep
 * (every 2 s, the stack's own provider, which never received this attempt) settles it.
 */
describe('a card form attempt whose invocation was killed mid-call', () => {
  /** The card form's claim of the checkout's current attempt, as it commits it before asking the provider, `agoMs` ago. */
  async function killedClaim(sale: Sale, agoMs: number): Promise<void> {
    useLocalStackEnvironment();
    const runtime = getRuntime();
    const ports = checkoutCardPorts(runtime, routes.checkoutCard);
    const checkout = await ports.checkouts.get(sale.reference);
    if (!checkout) throw new Error('no checkout');
    const at = Date.now() - agoMs;
    const inFlight = {
      providerKey: checkoutCardProviderKey(sale.reference, checkout.cardAttempt),
      brand: 'visa',
      last4: '1111',
      installments: 1,
      holder: 'ANA SILVA',
      at: new Date(at).toISOString(),
    };
    await ports.commit([{ kind: 'checkout.card_claimed', checkout, lease: { id: randomUUID(), untilMs: at + 1_000 }, nowMs: at, inFlight }]);
  }

  it('never received by the provider: the upkeep finds the attempt (it was recorded with the claim) and reopens the checkout; a new card attempt pays it once', async () => {
    const sale = await newSale();
    await killedClaim(sale, 60_000);
    const claimed = await checkoutRecord(sale.reference);
    // What the killed invocation left, unless the stack's upkeep already settled it.
    if (claimed.cardAttempt === 0)
      expect(claimed).toMatchObject({ status: 'PENDING', unknownAttempt: { last4: '1111' }, GSI2PK: expect.stringMatching(/^CHKUNK#/) });

    const reopened = await eventually(
      () => checkoutRecord(sale.reference),
      (item) => item.cardAttempt === 1,
      UPKEEP_WAIT_MS,
      250,
    );
    expect(reopened).toMatchObject({ status: 'PENDING', GSI2PK: expect.stringMatching(/^CHKOPEN#/) });
    expect(reopened.unknownAttempt).toBeUndefined();
    expect(await balanceCents(sale.keys.account_id)).toBe(0);

    const opened = await openPage(sale.page);
    expectCallback(await payCard(sale, opened), sale);
    expect(await availableBalance(sale.auth)).toBe('99.80');
    const paid = await checkoutRecord(sale.reference);
    expect(paid.unknownAttempt).toBeUndefined();
    expect(paid.GSI2PK).toBeUndefined();
  }, 90_000);

  it('paid by Pix meanwhile: the checkout is PAID and keeps the attempt for the upkeep, which asks the provider and clears it (never dropped unasked)', async () => {
    const sale = await newSale();
    await killedClaim(sale, 60_000);
    const pix = await pixOf(sale);
    expect((await notify(notification('pix-paid', { txid: pix.txid }))).status).toBe(200);
    const paid = await checkoutRecord(sale.reference);
    expect(paid).toMatchObject({ status: 'PAID', paymentType: 'pix', invoiceReference: pix.reference });
    // The attempt stays until the upkeep asked the provider about it (unless it already did).
    if (paid.unknownAttempt !== undefined) expect(paid.GSI2PK).toMatch(/^CHKUNK#/);

    const cleared = await eventually(
      () => checkoutRecord(sale.reference),
      (item) => item.unknownAttempt === undefined,
      UPKEEP_WAIT_MS,
      250,
    );
    expect(cleared).toMatchObject({ status: 'PAID', paymentType: 'pix' });
    expect(cleared.GSI2PK).toBeUndefined();
    expect(await availableBalance(sale.auth)).toBe('99.80');
    expect(typesOf(await orderEvents(sale))).toEqual(['order.paid']);
  }, 90_000);
});

/**
 * The upkeep's index (GSI2) as the in-process run sees it: only the given checkouts, read consistently
 * from their items. The in-process run uses a clock a day ahead, under which every open checkout of the
 * table is past its TTL: other test files running beside this one keep theirs.
 */
function upkeepIndexOf(db: Db, references: ReadonlySet<string>): Db {
  const send = async (command: unknown): Promise<unknown> => {
    if (command instanceof QueryCommand && command.input.IndexName === SWEEP_INDEX) {
      const values = command.input.ExpressionAttributeValues ?? {};
      const partition = String(values[':p']);
      const before = values[':before'] as string | undefined;
      const items = await Promise.all([...references].map((reference) => checkoutRecord(reference)));
      const inPartition = items.filter((item) => item.GSI2PK === partition && (before === undefined || String(item.GSI2SK) < before));
      return { Items: inPartition.map((item) => ({ PK: item.PK })) };
    }
    return (db.send as (c: unknown) => Promise<unknown>).call(db, command);
  };
  return new Proxy(db, { get: (target, property) => (property === 'send' ? send : Reflect.get(target, property, target)) });
}

/** Runs the upkeep worker in this process with the clock `aheadMs` past the newest of the checkouts, seeing only them. */
async function upkeepAhead(references: string[], aheadMs: number): Promise<unknown> {
  useLocalStackEnvironment();
  const runtime = getRuntime();
  const created = await Promise.all(references.map(async (reference) => Date.parse(String((await checkoutRecord(reference)).createdAt))));
  const future = new Date(Math.max(...created) + aheadMs);
  // The stack's provider is another process's: here the provider cannot be reached, so an UNKNOWN checkout stays so.
  const status = vi.spyOn(paymentProvider(runtime.config), 'cardAuthorizationStatus').mockRejectedValue(new ProviderError('unreachable (test)'));
  overrideRuntime({ clock: { now: () => future }, db: upkeepIndexOf(runtime.db, new Set(references)) });
  try {
    return await checkoutUpkeep().then(
      (outcome) => outcome,
      (err: unknown) => err,
    );
  } finally {
    overrideRuntime(runtime);
    status.mockRestore();
  }
}

describe('abandonment (the upkeep, in-process, 25 h later)', () => {
  it('PENDING past CHECKOUT_TTL → ABANDONED (page and card post 410); an UNKNOWN one is not abandoned; then its Pix is paid → PAID with order.paid', async () => {
    const sale = await newSale();
    const ahead = 25 * 60 * 60 * 1000;
    // The UNKNOWN checkout: the stack's upkeep reopens it after 2 × 5 s; a run that raced that is done again.
    let unknown: Item = {};
    for (let round = 1; round <= 3; round += 1) {
      const stuck = await saleOf(sale.keys, sale.auth);
      const opened = await openPage(stuck.page);
      expect((await payCard(stuck, opened, SIMULATED_CARDS.providerError)).status).toBe(502);
      expect(await checkoutRecord(stuck.reference)).toMatchObject({ status: 'UNKNOWN', cardAttempt: 0 });
      const outcome = await upkeepAhead(round === 1 ? [sale.reference, stuck.reference] : [stuck.reference], ahead);
      unknown = await checkoutRecord(stuck.reference);
      if (unknown.cardAttempt === 0) {
        // Its question to the provider failed: the run reports it, and the checkout waits for the next run.
        expect(outcome).toBeInstanceOf(Error);
        break;
      }
    }
    expect(unknown).toMatchObject({ status: 'UNKNOWN', cardAttempt: 0 });

    expect(await merchantView(sale)).toMatchObject({ status: 'ABANDONED', payment_type: null });
    const page = await call('GET', sale.page);
    expect(page.status, page.text).toBe(410);
    expect(page.text).toContain('Este pagamento expirou');
    const card = await postForm(`${sale.page}/card`, cardFields('no-page-no-token'));
    expect(card.status, card.text).toBe(410);
    expect((await call('GET', `${sale.page}/status`)).json).toEqual({ status: 'ABANDONED', redirect_url: null });
    expect(await orderEvents(sale)).toEqual([]);
    // Issue 31: the abandoned checkout's Pix invoice left the merchant's invoice list (still readable by reference).
    const pix = await pixOf(sale);
    const listedReferences = async () => (await listedItems(keys.invoiceListPartition(sale.keys.account_id))).map((item) => String(item.reference));
    expect(await listedReferences()).not.toContain(pix.reference);
    expect((await call('GET', `/api/invoice/ref/${pix.reference}`, { headers: sale.auth })).status).toBe(200);

    const paid = await notify(notification('pix-paid', { txid: pix.txid }));
    expect(paid.json).toEqual({ received: true, applied: true });
    expect(await merchantView(sale)).toMatchObject({ status: 'PAID', payment_type: 'pix' });
    // Paid after all: listed again.
    expect(await listedReferences()).toContain(pix.reference);
    const orders = await orderEvents(sale);
    expect(typesOf(orders)).toEqual(['order.paid']);
    expect(orderOf(orders[0])).toMatchObject({ reference: sale.reference, status: 'PAID', total: '99.80' });
    expect(await balanceCents(sale.keys.account_id)).toBe(9980);
  }, 60_000);
});

describe('order events follow the invoice behind the order', () => {
  it('refund of the Pix that paid the order → invoice.refunded and order.refunded', async () => {
    const sale = await newSale();
    const pix = await pixOf(sale);
    expect((await notify(notification('pix-paid', { txid: pix.txid }))).json).toEqual({ received: true, applied: true });
    const refunded = await notify(notification('refund', { reference: pix.reference }));
    expect(refunded.json).toEqual({ received: true, applied: true });
    expect(typesOf(await eventsAbout(sale.keys.account_id, pix.reference))).toEqual(['invoice.paid', 'invoice.refunded']);
    const orders = await orderEvents(sale);
    expect(typesOf(orders)).toEqual(['order.paid', 'order.refunded']);
    expect(orderOf(orders.find((event) => event.type === 'order.refunded'))).toMatchObject({
      reference: sale.reference,
      status: 'REFUNDED',
      total: '99.80',
      quantity: 2,
      customer: { name: 'Ana Silva', email: 'ana@example.com' },
    });
    expect(await balanceCents(sale.keys.account_id)).toBe(0);
  });

  it('paid by card, the Pix paid on its own: refunding the Pix → no order event; canceling the card invoice → order.canceled', async () => {
    const sale = await newSale();
    const opened = await openPage(sale.page);
    expectCallback(await payCard(sale, opened), sale);
    const cardReference = String((await checkoutRecord(sale.reference)).invoiceReference);
    const pix = await pixOf(sale);
    expect((await notify(notification('pix-paid', { txid: pix.txid }))).json).toEqual({ received: true, applied: true });

    expect((await notify(notification('refund', { reference: pix.reference }))).json).toEqual({ received: true, applied: true });
    expect(typesOf(await eventsAbout(sale.keys.account_id, pix.reference))).toEqual(['invoice.paid', 'invoice.refunded']);
    expect(typesOf(await orderEvents(sale))).toEqual(['order.paid']);
    expect((await checkoutRecord(sale.reference)).orderStatus).toBe('PAID');

    expect((await notify(notification('cancel', { reference: cardReference }))).json).toEqual({ received: true, applied: true });
    expect(typesOf(await eventsAbout(sale.keys.account_id, cardReference))).toEqual(['invoice.canceled', 'invoice.paid']);
    const orders = await orderEvents(sale);
    expect(typesOf(orders)).toEqual(['order.canceled', 'order.paid']);
    expect(orderOf(orders.find((event) => event.type === 'order.canceled'))).toMatchObject({ reference: sale.reference, status: 'CANCELED', total: '99.80' });
    expect(await balanceCents(sale.keys.account_id)).toBe(0);
  });
});

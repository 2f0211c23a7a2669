import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as createBoleto } from '../../functions/charges/boleto';
import { handler as createPix } from '../../functions/charges/pix';
import { handler as checkoutEntry } from '../../functions/checkout/entry';
import { handler as providerNotification } from '../../functions/provider/notifications';
import { handler as payoutWorker } from '../../functions/workers/payout';
import { lambdaContext, toHttpApiEvent } from '../../infra/local/apigw-event';
import type { IssuedKeys } from '../../shared/adapters/dynamo/accounts';
import type { BankPort, PayoutRequest } from '../../shared/ports/bank';
import type { PaymentProvider } from '../../shared/ports/payment-provider';
import type { SimulatedBank } from '../../shared/adapters/bank/simulated';
import { routes } from '../../shared/http/routes';
import { newNumericId } from '../../shared/platform/ids';
import { idempotentPixIds, invoiceIdDraw, newInvoiceReference } from '../../shared/platform/invoice-references';
import { SIMULATED_SIGNATURE_HEADER, simulatedProvider } from '../../shared/adapters/providers/simulated';
import { bank, defaultRegistry } from '../../shared/wiring/provider-registry';
import { getRuntime, overrideRuntime, type Runtime } from '../../shared/wiring/runtime';
import type { Item } from '../../shared/adapters/dynamo/dynamo';
import { keys } from '../../shared/adapters/dynamo/keys';
import { signatureHeader } from '../../shared/domain/hmac-header';
import { newWithdrawReference } from '../../shared/platform/ids';
import { withdrawalItem } from '../../shared/adapters/dynamo/withdrawals';
import { accountStore, bearer, newAccount, tokenFor, uniqueIp, useLocalStackEnvironment } from '../support/api';
import { common, createCustomerWithAddress } from '../support/charges';
import { entryForm } from '../support/checkout';
import { conforming, type Invoked, invoke, invoked } from '../support/invoke';
import { listedItems } from '../support/ledger';
import { notification, providerSecret } from '../support/provider';
import { sqsEvent } from '../support/sqs-event';

/**
 * Provider effects before a commit (issue 11): Pix and boleto creation, and the checkout entry's Pix,
 * register ONE charge at the provider per invoice, even when a drawn id is already taken (drawn again
 * before the provider is asked) and when the id is taken between the provider call and the commit (a
 * race: 503, nothing recorded, the key freed; the retry draws new ids). The provider here is a
 * counting one registered BY NAME in the provider registry and named by the configuration, so the
 * invoices record it; notifications and the payout worker resolve by the names records carry.
 */

type Registration = { method: 'pix' | 'boleto'; reference: string; invoiceId?: number };

const COUNTING = 'counting';
const COUNTING_BANK = 'counting-bank';

/** Every registration the counting provider was asked for, in order. */
const registrations: Registration[] = [];
/** Runs inside a registration, before the provider answers (a test's race). */
let duringRegistration: ((registration: Registration) => Promise<void>) | undefined;
const bankRequests: PayoutRequest[] = [];

defaultRegistry.registerPaymentProvider(COUNTING, (config): PaymentProvider => {
  const inner = simulatedProvider({ locationBase: config.publicBaseUrl });
  const registered = async (registration: Registration) => {
    registrations.push(registration);
    await duringRegistration?.(registration);
  };
  return {
    ...inner,
    name: COUNTING,
    charges: {
      ...inner.charges,
      async pix(request) {
        await registered({ method: 'pix', reference: request.reference });
        return inner.charges.pix(request);
      },
      async boleto(request) {
        await registered({ method: 'boleto', reference: request.reference, invoiceId: request.invoiceId });
        return inner.charges.boleto(request);
      },
    },
  };
});
defaultRegistry.registerBank(COUNTING_BANK, (): BankPort => ({
  name: COUNTING_BANK,
  async requestPayout(request) {
    bankRequests.push(request);
  },
}));

/** The registrations made while `fn` ran. */
async function registrationsDuring<T>(fn: () => Promise<T>): Promise<{ result: T; made: Registration[] }> {
  const before = registrations.length;
  const result = await fn();
  return { result, made: registrations.slice(before) };
}

async function itemAt(key: { PK: string; SK: string }): Promise<Item | undefined> {
  const store = accountStore();
  return (await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }))).Item;
}

/** Another request's invoice under `reference` (a type no stream consumer or listing reads). */
async function takeReference(reference: string): Promise<void> {
  const store = accountStore();
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: { ...keys.invoice(reference), type: 'invoice-under-test', reference, accountId: 'acct_someone_else' },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/** Another request's reservation of the numeric id. */
async function takeInvoiceId(invoiceId: number): Promise<void> {
  const store = accountStore();
  await store.db.send(
    new PutCommand({
      TableName: store.table,
      Item: { ...keys.invoiceIdReservation(invoiceId), type: 'invoicePointer-under-test', reference: 'INV-ZZZZZZ', accountId: 'acct_someone_else' },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

type Merchant = { issued: IssuedKeys; accountId: string; auth: Record<string, string> };

async function merchant(): Promise<Merchant> {
  const issued = await newAccount();
  return { issued, accountId: issued.account_id, auth: bearer(await tokenFor(issued)) };
}

const pixBody = () => common({ email: 'payer@example.com', client: 'Payer' });

function createPixAs(who: Merchant, key: string, body: object = pixBody()): Promise<Invoked> {
  return invoke(createPix, routes.createPix, { headers: { ...who.auth, 'idempotency-key': key }, body });
}

function createBoletoAs(who: Merchant, key: string, customer: number, body: object = common()): Promise<Invoked> {
  return invoke(createBoleto, routes.createBoleto, { headers: { ...who.auth, 'idempotency-key': key }, body: { ...body, customer } });
}

const referenceOf = (reply: Invoked) => String((reply.json as { invoice?: { reference?: string } }).invoice?.reference);

async function invoicesOf(who: Merchant): Promise<Item[]> {
  return listedItems(keys.invoiceListPartition(who.accountId));
}

/** The provider's notification route, called in this process with the path's provider name. */
async function notifyAs(name: string, body: string, secret: string): Promise<Invoked> {
  const route = routes.providerNotification;
  const event = toHttpApiEvent(
    {
      method: route.method,
      url: `/provider/${name}/notifications`,
      headers: { 'content-type': 'application/json', [SIMULATED_SIGNATURE_HEADER]: signatureHeader(body, secret, Math.floor(Date.now() / 1000)) },
      body: Buffer.from(body),
      sourceIp: uniqueIp(),
      host: 'localhost',
    },
    `${route.method} ${route.path}`,
    { name },
  );
  return conforming(
    route,
    route.path,
    invoked((await providerNotification(event as never, lambdaContext(route.id) as never)) as APIGatewayProxyStructuredResultV2),
  );
}

describe('one registration at the provider per invoice (in-process, a counting provider named by the configuration)', () => {
  let base: Runtime;

  beforeAll(() => {
    useLocalStackEnvironment();
    base = getRuntime();
    overrideRuntime({ config: { ...base.config, payments: { ...base.config.payments, provider: COUNTING, cardAndBoletoProvider: COUNTING } } });
  });

  afterEach(() => {
    duringRegistration = undefined;
    vi.restoreAllMocks();
  });

  afterAll(() => {
    overrideRuntime({ config: base.config });
  });

  it('Pix: each invoice is registered once, records its provider, and a replay of its key registers nothing', async () => {
    const who = await merchant();
    const keysUsed = [`pix-a-${randomUUID()}`, `pix-b-${randomUUID()}`, `pix-c-${randomUUID()}`];
    const firstBody = pixBody();
    const { result: replies, made } = await registrationsDuring(() =>
      Promise.all(keysUsed.map((key, i) => (i === 0 ? createPixAs(who, key, firstBody) : createPixAs(who, key)))),
    );
    for (const reply of replies) expect(reply.status, reply.body).toBe(200);
    const references = replies.map(referenceOf).sort();
    expect(made.map((r) => r.reference).sort()).toEqual(references);
    expect(made.every((r) => r.method === 'pix')).toBe(true);
    const invoices = await invoicesOf(who);
    expect(invoices.map((i) => String(i.reference)).sort()).toEqual(references);
    expect(invoices.every((i) => i.provider === COUNTING)).toBe(true);

    const replayed = await registrationsDuring(() => createPixAs(who, keysUsed[0] ?? '', firstBody));
    expect(replayed.result.status).toBe(200);
    expect(referenceOf(replayed.result)).toBe(referenceOf(replies[0] as Invoked));
    expect(replayed.made).toEqual([]);
  });

  it('boleto: each invoice is registered once (with its own numeric id) and records its provider', async () => {
    const who = await merchant();
    const customer = await createCustomerWithAddress(who.auth);
    const { result: replies, made } = await registrationsDuring(() =>
      Promise.all([createBoletoAs(who, `bol-a-${randomUUID()}`, customer), createBoletoAs(who, `bol-b-${randomUUID()}`, customer)]),
    );
    for (const reply of replies) expect(reply.status, reply.body).toBe(200);
    const invoices = await invoicesOf(who);
    expect(invoices).toHaveLength(2);
    expect(made.map((r) => `${r.method}:${r.reference}:${r.invoiceId}`).sort()).toEqual(
      invoices.map((i) => `boleto:${String(i.reference)}:${Number(i.invoiceId)}`).sort(),
    );
    expect(invoices.every((i) => i.provider === COUNTING)).toBe(true);
  });

  it('Pix: a first drawn reference already taken is drawn again BEFORE the provider is asked (one registration, not of the taken one)', async () => {
    const who = await merchant();
    const taken = newInvoiceReference();
    await takeReference(taken);
    vi.spyOn(invoiceIdDraw, 'reference').mockReturnValueOnce(taken);
    const { result: reply, made } = await registrationsDuring(() => createPixAs(who, `pix-taken-${randomUUID()}`));
    expect(reply.status, reply.body).toBe(200);
    expect(referenceOf(reply)).not.toBe(taken);
    expect(made).toEqual([{ method: 'pix', reference: referenceOf(reply) }]);
    expect(await itemAt(keys.invoice(taken))).toMatchObject({ type: 'invoice-under-test', accountId: 'acct_someone_else' });
    expect((await invoicesOf(who)).map((i) => i.reference)).toEqual([referenceOf(reply)]);
  });

  it('boleto: a first drawn numeric id already reserved is drawn again before the boleto is registered', async () => {
    const who = await merchant();
    const customer = await createCustomerWithAddress(who.auth);
    const takenId = newNumericId(new Date());
    await takeInvoiceId(takenId);
    vi.spyOn(invoiceIdDraw, 'numericId').mockReturnValueOnce(takenId);
    const { result: reply, made } = await registrationsDuring(() => createBoletoAs(who, `bol-taken-${randomUUID()}`, customer));
    expect(reply.status, reply.body).toBe(200);
    const [invoice] = await invoicesOf(who);
    expect(Number(invoice?.invoiceId)).not.toBe(takenId);
    expect(made).toEqual([{ method: 'boleto', reference: referenceOf(reply), invoiceId: Number(invoice?.invoiceId) }]);
    expect(await itemAt(keys.invoiceIdReservation(takenId))).toMatchObject({ type: 'invoicePointer-under-test' });
  });

  it('Pix: when every draw is taken the provider is never asked (503 temporary_conflict); the key is free for a retry', async () => {
    const who = await merchant();
    const taken = newInvoiceReference();
    await takeReference(taken);
    const key = `pix-all-taken-${randomUUID()}`;
    // The reference the key proposes first (its txid is derived from the key) is taken too.
    await takeReference(idempotentPixIds(who.accountId, key).reference);
    const body = pixBody();
    const draws = vi.spyOn(invoiceIdDraw, 'reference').mockReturnValue(taken);
    const { result: refused, made } = await registrationsDuring(() => createPixAs(who, key, body));
    expect(refused.status, refused.body).toBe(503);
    expect(refused.json).toMatchObject({ code: 'temporary_conflict' });
    expect(made).toEqual([]);
    expect(await invoicesOf(who)).toEqual([]);
    draws.mockRestore();
    const retried = await registrationsDuring(() => createPixAs(who, key, body));
    expect(retried.result.status, retried.result.body).toBe(200);
    expect(retried.made).toEqual([{ method: 'pix', reference: referenceOf(retried.result) }]);
  });

  it('Pix: a reference taken between the provider call and the commit (a race) is not registered again: 503, nothing recorded, the retry registers once', async () => {
    const who = await merchant();
    const key = `pix-race-${randomUUID()}`;
    const body = pixBody();
    duringRegistration = (registration) => takeReference(registration.reference);
    const { result: lost, made } = await registrationsDuring(() => createPixAs(who, key, body));
    duringRegistration = undefined;
    expect(lost.status, lost.body).toBe(503);
    expect(lost.json).toMatchObject({ code: 'temporary_conflict' });
    expect(made).toHaveLength(1);
    const raced = made[0]?.reference ?? '';
    expect(await invoicesOf(who)).toEqual([]);
    expect(await itemAt(keys.invoice(raced))).toMatchObject({ type: 'invoice-under-test' });

    const retried = await registrationsDuring(() => createPixAs(who, key, body));
    expect(retried.result.status, retried.result.body).toBe(200);
    expect(referenceOf(retried.result)).not.toBe(raced);
    expect(retried.made).toEqual([{ method: 'pix', reference: referenceOf(retried.result) }]);
    expect((await invoicesOf(who)).map((i) => i.reference)).toEqual([referenceOf(retried.result)]);
    expect(registrations.filter((r) => r.reference === raced)).toHaveLength(1);
  });

  it('boleto: a numeric id reserved between the registration and the commit is not registered again: 503, nothing recorded, the retry registers once', async () => {
    const who = await merchant();
    const customer = await createCustomerWithAddress(who.auth);
    const key = `bol-race-${randomUUID()}`;
    const body = common();
    duringRegistration = (registration) => takeInvoiceId(Number(registration.invoiceId));
    const { result: lost, made } = await registrationsDuring(() => createBoletoAs(who, key, customer, body));
    duringRegistration = undefined;
    expect(lost.status, lost.body).toBe(503);
    expect(lost.json).toMatchObject({ code: 'temporary_conflict' });
    expect(made).toHaveLength(1);
    expect(await invoicesOf(who)).toEqual([]);
    expect(await itemAt(keys.invoice(made[0]?.reference ?? ''))).toBeUndefined();

    const retried = await registrationsDuring(() => createBoletoAs(who, key, customer, body));
    expect(retried.result.status, retried.result.body).toBe(200);
    expect(retried.made).toHaveLength(1);
    expect(retried.made[0]?.reference).toBe(referenceOf(retried.result));
    expect(retried.made[0]?.invoiceId).not.toBe(made[0]?.invoiceId);
    expect(await invoicesOf(who)).toHaveLength(1);
  });

  it('checkout entry: its Pix invoice raced at the commit is not registered again (503, no checkout); the next post registers once', async () => {
    const who = await merchant();
    const form = new URLSearchParams(entryForm(who.issued)).toString();
    const post = () => invoke(checkoutEntry, routes.checkoutEntry, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    duringRegistration = (registration) => takeReference(registration.reference);
    const { result: lost, made } = await registrationsDuring(post);
    duringRegistration = undefined;
    expect(lost.status, lost.body).toBe(503);
    expect(made).toHaveLength(1);
    expect(await invoicesOf(who)).toEqual([]);

    const { result: entered, made: again } = await registrationsDuring(post);
    expect(entered.status, entered.body).toBe(303);
    expect(again).toHaveLength(1);
    expect(again[0]?.reference).not.toBe(made[0]?.reference);
    const invoices = await invoicesOf(who);
    expect(invoices.map((i) => `${String(i.reference)}:${String(i.provider)}`)).toEqual([`${again[0]?.reference}:${COUNTING}`]);
  });
});

describe('notifications and payouts resolve by the names records carry (in-process)', () => {
  let base: Runtime;

  beforeAll(() => {
    useLocalStackEnvironment();
    base = getRuntime();
  });

  afterEach(() => {
    overrideRuntime({ config: base.config });
  });

  async function pixInvoiceBy(provider: string, who: Merchant): Promise<{ reference: string; txid: string }> {
    overrideRuntime({ config: { ...base.config, payments: { ...base.config.payments, provider } } });
    try {
      const reply = await createPixAs(who, `pix-${provider}-${randomUUID()}`);
      expect(reply.status, reply.body).toBe(200);
      const invoice = (reply.json as { invoice: { reference: string; txid: string } }).invoice;
      return { reference: invoice.reference, txid: invoice.txid };
    } finally {
      overrideRuntime({ config: base.config });
    }
  }

  it('a notification moves only invoices its provider created: the simulated provider cannot pay the counting provider’s charge', async () => {
    const who = await merchant();
    const secret = await providerSecret();
    const counted = await pixInvoiceBy(COUNTING, who);
    const simulated = await pixInvoiceBy('simulated', who);
    expect((await itemAt(keys.invoice(counted.reference)))?.provider).toBe(COUNTING);
    expect((await itemAt(keys.invoice(simulated.reference)))?.provider).toBe('simulated');

    const foreign = await notifyAs('simulated', JSON.stringify(notification('pix-paid', { txid: counted.txid })), secret);
    expect(foreign.status, foreign.body).toBe(200);
    expect(foreign.json).toEqual({ received: true, applied: false });
    expect((await itemAt(keys.invoice(counted.reference)))?.status).toBe('PENDING');

    const own = await notifyAs('simulated', JSON.stringify(notification('pix-paid', { txid: simulated.txid })), secret);
    expect(own.json).toEqual({ received: true, applied: true });
    expect((await itemAt(keys.invoice(simulated.reference)))?.status).toBe('PAID');
  });

  it('the route resolves the provider its path names through the registry: a name none answers to → 404', async () => {
    const secret = await providerSecret();
    const reply = await notifyAs('acme', JSON.stringify(notification('pix-paid', { txid: 'INVAAAAAA00000000000000000000001' })), secret);
    expect(reply.status, reply.body).toBe(404);
  });

  it('the payout worker asks the bank the withdraw records; a withdraw recording none goes to the configured bank', async () => {
    const personalData = (await getRuntime().serviceKeys()).personalData;
    const store = accountStore();
    const put = async (bankName: string | undefined) => {
      const reference = newWithdrawReference();
      const createdAt = new Date().toISOString();
      const item = withdrawalItem(
        {
          status: 'PENDING',
          accountId: `acct_test_${randomUUID()}`,
          reference,
          amountCents: 1_000,
          feeCents: 0,
          pixkey: 'payee@example.com',
          keytype: 'EMAIL',
          createdAt,
          ...(bankName ? { bank: bankName } : {}),
        },
        personalData,
      );
      // A type no stream consumer reads, in a sweep partition no sweep reads: only this test's worker call sees it.
      await store.db.send(
        new PutCommand({
          TableName: store.table,
          Item: { ...item, type: 'withdraw-under-test', GSI2PK: 'SWEEP-TEST#provider-registrations', GSI2SK: `${createdAt}#${reference}` },
        }),
      );
      return { reference, item };
    };
    const recorded = await put(COUNTING_BANK);
    expect(recorded.item.bank).toBe(COUNTING_BANK);
    const unnamed = await put(undefined);
    expect(unnamed.item.bank).toBeUndefined();
    const simulatedBank = bank(getRuntime().config, 'simulated') as SimulatedBank;

    const result = await payoutWorker(
      sqsEvent([JSON.stringify({ reference: recorded.reference }), JSON.stringify({ reference: unnamed.reference })], 'payouts'),
    );
    expect(result.batchItemFailures).toEqual([]);
    expect(bankRequests.map((r) => r.reference)).toEqual([recorded.reference]);
    expect(simulatedBank.requests.get(recorded.reference)).toBeUndefined();
    expect(simulatedBank.requests.get(unnamed.reference)).toBe(1);
    for (const { reference } of [recorded, unnamed]) expect((await itemAt(keys.withdraw(reference)))?.bankRequestedAt).toEqual(expect.any(String));
  });
});

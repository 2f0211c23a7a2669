import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createBoleto } from '../../functions/charges/boleto';
import type { PaymentOptions } from '../../infra/admin/provider';
import { keys } from '../../shared/adapters/dynamo/keys';
import { amountDue } from '../../shared/domain/late-payment';
import { formatCents, parseAmountToCents } from '../../shared/domain/money';
import { routes } from '../../shared/http/routes';
import { paymentProvider } from '../../shared/wiring/provider-registry';
import type { SimulatedProvider } from '../../shared/adapters/providers/simulated';
import { getRuntime } from '../../shared/wiring/runtime';
import { railUpkeep } from '../../shared/app/invoices/rail-upkeep';
import { checkoutUpkeepWorker } from '../../shared/platform/queues';
import { railUpkeepPorts } from '../../shared/wiring/rails';
import { accountStore, admin, bearer, call, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { common, createCustomerWithAddress, decodeQrDataUri } from '../support/charges';
import { invoke } from '../support/invoke';
import { eventsAbout, ledgerEntriesOf, reservedShards, storedBalanceCents } from '../support/ledger';
import { notifyHere } from '../support/provider';
import { GetCommand } from '@aws-sdk/lib-dynamodb';

/**
 * BolePix (issue 28), in this process so the simulated provider's state can be read: a boleto with a
 * due-date Pix half, paid exactly once across its rails, the other rail withdrawn at the provider, a
 * payment on both credited once as the invoice's and once apart as a refund due, late payments at
 * exactly the amount the rules give, and expiry past days_after_due.
 */

type Merchant = { accountId: string; auth: Record<string, string>; customer: number };

async function merchant(methods: ('pix' | 'boleto' | 'card')[] = ['pix', 'boleto']): Promise<Merchant> {
  const issued = await newAccount(methods);
  const auth = bearer(await tokenFor(issued));
  return { accountId: issued.account_id, auth, customer: await createCustomerWithAddress(auth) };
}

type Created = { reference: string; total: string; due_date: string; txid?: string; copy?: string; qrcode?: string; barcode: string; digitable: string };

async function bolePix(who: Merchant, body: Record<string, unknown> = {}): Promise<Created> {
  const reply = await invoke(createBoleto, routes.createBoleto, { headers: who.auth, body: { ...common(), customer: who.customer, ...body } });
  expect(reply.status, reply.body).toBe(200);
  return (reply.json as { invoice: Created }).invoice;
}

/** A payment on one rail, notified through the route in this process; whether it was applied. */
async function pay(command: 'pix-paid' | 'boleto-paid', target: { txid?: string; reference?: string }, payment: PaymentOptions = {}) {
  const reply = await notifyHere(command, target, payment);
  expect(reply.status, reply.body).toBe(200);
  return (reply.json as { applied: boolean }).applied;
}

async function invoice(who: Merchant, reference: string): Promise<Record<string, unknown>> {
  const reply = await call('GET', `/api/invoice/ref/${reference}`, { headers: who.auth });
  expect(reply.status, reply.text).toBe(200);
  return (reply.json as { invoice: Record<string, unknown> }).invoice;
}

async function storedInvoice(reference: string) {
  const store = accountStore();
  return (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.invoice(reference), ConsistentRead: true }))).Item ?? {};
}

const cents = (money: string) => parseAmountToCents(money);
const dayAfter = (date: string, days = 1) => new Date(Date.parse(`${date}T12:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe('BolePix: one invoice on two rails (simulated provider, in-process)', () => {
  let provider: SimulatedProvider;

  beforeAll(() => {
    useLocalStackEnvironment();
    provider = paymentProvider(getRuntime().config) as SimulatedProvider;
  });

  it('creates a boleto with its due-date Pix half: txid, copy and a QR code of copy; found by txid and by reference with both rails and its rules', async () => {
    const who = await merchant();
    const created = await bolePix(who, { fine: 2, interest: 1, days_after_due: 10 });
    expect(created.txid).toMatch(/^[A-Za-z0-9]{26,35}$/);
    expect(created.copy).toMatch(/^000201/);
    expect(decodeQrDataUri(created.qrcode ?? '')).toBe(created.copy);
    expect(created.digitable).toMatch(/^\d{47}$/);
    expect(provider.dueCharges.held.get(created.txid ?? '')?.status).toBe('ACTIVE');
    const byTxid = await call('GET', `/api/pix/txid/${created.txid}`, { headers: who.auth });
    expect(byTxid.status).toBe(200);
    expect(byTxid.json).toMatchObject({
      invoice: { reference: created.reference, method: 'boleto', txid: created.txid, copy: created.copy, barcode: created.barcode },
    });
    expect(await invoice(who, created.reference)).toMatchObject({
      status: 'PENDING',
      late_payment: { fine: 2, interest: 1, days_after_due: 10 },
      paid_amount: null,
      paid_rail: null,
      txid: created.txid,
      digitable: created.digitable,
    });
  });

  it('an account without Pix gets a plain boleto, as before: no Pix half, no rules, not in the rails upkeep', async () => {
    const who = await merchant(['boleto']);
    const created = await bolePix(who);
    expect(created.txid).toBeUndefined();
    expect(created.copy).toBeUndefined();
    const stored = await storedInvoice(created.reference);
    expect(stored.pix).toBeUndefined();
    expect(stored.late).toBeUndefined();
    expect(stored.GSI2PK).toBeUndefined();
  });

  it('paid by Pix: PAID once with the rail, invoice.paid says pix, the boleto written off, the balance credited once', async () => {
    const who = await merchant();
    const created = await bolePix(who);
    expect(await pay('pix-paid', { txid: created.txid })).toBe(true);
    expect(await pay('pix-paid', { txid: created.txid })).toBe(false);
    expect(provider.writtenOff.has(created.reference)).toBe(true);
    expect(provider.dueCharges.held.get(created.txid ?? '')?.status).toBe('ACTIVE');
    expect(await invoice(who, created.reference)).toMatchObject({ status: 'PAID', paid_rail: 'pix', paid_amount: created.total });
    expect(await storedBalanceCents(who.accountId)).toBe(cents(created.total));
    const paidEvents = (await eventsAbout(who.accountId, created.reference)).filter((event) => event.type === 'invoice.paid');
    expect(paidEvents.map((event) => event.data.invoice)).toEqual([expect.objectContaining({ rail: 'pix', paid_amount: created.total, method: 'boleto' })]);
    // Nothing left to keep: out of the rails upkeep's index.
    expect((await storedInvoice(created.reference)).GSI2PK).toBeUndefined();
  });

  it('paid by boleto: the Pix half removed at the provider', async () => {
    const who = await merchant();
    const created = await bolePix(who);
    expect(await pay('boleto-paid', { reference: created.reference })).toBe(true);
    expect(provider.dueCharges.held.get(created.txid ?? '')?.status).toBe('REMOVED');
    expect(provider.writtenOff.has(created.reference)).toBe(false);
    expect(await invoice(who, created.reference)).toMatchObject({ status: 'PAID', paid_rail: 'boleto' });
  });

  it('paid on both rails: one payment of the invoice and one held apart flagged refund_due; available and reserved one total each, exactly; one invoice.paid', async () => {
    const who = await merchant();
    const created = await bolePix(who);
    expect(await pay('boleto-paid', { reference: created.reference })).toBe(true);
    expect(await pay('pix-paid', { txid: created.txid })).toBe(true);
    // The same second payment notified again changes nothing.
    expect(await pay('pix-paid', { txid: created.txid })).toBe(false);
    const view = await invoice(who, created.reference);
    expect(view).toMatchObject({ status: 'PAID', paid_rail: 'boleto', paid_amount: created.total, refund_due: { rail: 'pix', amount: created.total } });
    // The second payment is held on the reserved balance until it is refunded (issue 43): never withdrawable.
    expect(await storedBalanceCents(who.accountId)).toBe(cents(created.total));
    expect((await reservedShards(who.accountId)).reduce((sum, part) => sum + part, 0)).toBe(cents(created.total));
    const payments = (await ledgerEntriesOf(who.accountId)).filter((entry) => entry.entryType === 'payment');
    expect(payments.map((entry) => [entry.amountCents, entry.reservedCents ?? 0]).sort()).toEqual([
      [0, cents(created.total)],
      [cents(created.total), 0],
    ]);
    expect(payments.filter((entry) => String(entry.description).includes('refund'))).toHaveLength(1);
    const paidEvents = (await eventsAbout(who.accountId, created.reference)).filter((event) => event.type === 'invoice.paid');
    expect(paidEvents).toHaveLength(1);
  });

  it('one day after the due date with fine 2 and interest 1: credited at exactly amountDue; one cent off is not credited', async () => {
    const who = await merchant();
    const created = await bolePix(who, { fine: 2, interest: 1, days_after_due: 5 });
    const date = dayAfter(created.due_date);
    const rules = { fineBasisPoints: 200, interestBasisPointsAMonth: 100, daysAfterDue: 5 };
    const due = amountDue(cents(created.total), rules, created.due_date, date);
    if (!due.payable) throw new Error('one day late is within the window');
    expect(due.dueCents).toBeGreaterThan(cents(created.total));
    expect(await pay('pix-paid', { txid: created.txid }, { amount: formatCents(due.dueCents - 1), date })).toBe(false);
    expect(await pay('boleto-paid', { reference: created.reference }, { amount: formatCents(due.dueCents + 1), date })).toBe(false);
    expect(await storedBalanceCents(who.accountId)).toBe(0);
    expect(await pay('boleto-paid', { reference: created.reference }, { amount: formatCents(due.dueCents), date })).toBe(true);
    expect(await invoice(who, created.reference)).toMatchObject({
      status: 'PAID',
      paid_amount: formatCents(due.dueCents),
      total: created.total,
      paid_rail: 'boleto',
    });
    expect(await storedBalanceCents(who.accountId)).toBe(due.dueCents);
    const [entry] = (await ledgerEntriesOf(who.accountId)).filter((item) => item.entryType === 'payment');
    expect(entry?.amountCents).toBe(due.dueCents);
    // Without --amount the bank pays what is due that day.
    const other = await bolePix(who, { fine: 2, interest: 1, days_after_due: 5 });
    expect(await pay('pix-paid', { txid: other.txid }, { date })).toBe(true);
    expect(await invoice(who, other.reference)).toMatchObject({ paid_amount: formatCents(due.dueCents) });
  });

  it('past days_after_due: the upkeep cancels it and withdraws both rails; a payment that day is not credited', async () => {
    const who = await merchant();
    const created = await bolePix(who, { days_after_due: 0 });
    const after = dayAfter(created.due_date);
    expect(await pay('boleto-paid', { reference: created.reference }, { date: after })).toBe(false);
    // The checkout upkeep worker's rails upkeep, run a day later over this invoice alone (other files' invoices keep theirs).
    const ports = railUpkeepPorts(getRuntime(), checkoutUpkeepWorker);
    const seen: string[] = [];
    const only = {
      ...ports,
      index: {
        ...ports.index,
        due: async (partition: string, before: string, limit: number) => {
          const due = (await ports.index.due(partition, before, 1_000)).filter((reference) => reference === created.reference);
          seen.push(...due);
          return due.slice(0, limit);
        },
      },
    };
    const early = await railUpkeep(only, new Date(Date.parse(`${created.due_date}T20:00:00.000Z`)), 30_000);
    expect(early).toMatchObject({ expired: 0, closed: 0 });
    const outcome = await railUpkeep(only, new Date(Date.parse(`${after}T12:00:00.000Z`)), 30_000);
    expect(seen).toEqual([created.reference]);
    expect(outcome).toMatchObject({ checked: 1, expired: 1, closed: 2, failed: 0 });
    expect(await invoice(who, created.reference)).toMatchObject({ status: 'CANCELED', paid_amount: null });
    expect(provider.writtenOff.has(created.reference)).toBe(true);
    expect(provider.dueCharges.held.get(created.txid ?? '')?.status).toBe('REMOVED');
    expect((await storedInvoice(created.reference)).GSI2PK).toBeUndefined();
    expect((await eventsAbout(who.accountId, created.reference)).map((event) => event.type)).toEqual(['invoice.canceled']);
  });

  it('the operator CLI pays either rail of a BolePix on the running stack with --amount and --date; a malformed one is a usage error', async () => {
    const who = await merchant();
    const reply = await call('POST', '/api/boleto/create', { headers: who.auth, body: { ...common(), customer: who.customer, fine: 2, interest: 1 } });
    expect(reply.status, reply.text).toBe(200);
    const created = (reply.json as { invoice: Created }).invoice;
    const date = dayAfter(created.due_date, 2);
    const due = amountDue(cents(created.total), { fineBasisPoints: 200, interestBasisPointsAMonth: 100, daysAfterDue: 30 }, created.due_date, date);
    if (!due.payable) throw new Error('two days late is within the default 30');
    expect((await admin('provider', 'boleto-paid', '--reference', created.reference, '--amount', '1,00')).code).toBe(2);
    expect((await admin('provider', 'pix-paid', '--txid', created.txid ?? '', '--date', '28/11/2026')).code).toBe(2);
    const off = await admin('provider', 'pix-paid', '--txid', created.txid ?? '', '--date', date, '--amount', formatCents(due.dueCents - 1));
    expect(off.json).toMatchObject({ status: 200, response: { applied: false } });
    const paid = await admin('provider', 'boleto-paid', '--reference', created.reference, '--date', date, '--amount', formatCents(due.dueCents));
    expect(paid.code).toBe(0);
    expect(paid.json).toMatchObject({ status: 200, response: { applied: true } });
    expect(await invoice(who, created.reference)).toMatchObject({
      status: 'PAID',
      paid_rail: 'boleto',
      paid_amount: formatCents(due.dueCents),
      paid_at: `${date}T15:00:00.000Z`,
    });
  }, 60_000);
});

import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { creditAccount, type IssuedKeys } from '../../shared/adapters/dynamo/accounts';
import { TemporaryConflictError } from '../../shared/domain/errors';
import { LEDGER_ITEM_TYPE, LEDGER_PK_PREFIX } from '../../shared/adapters/dynamo/ledger';
import { BALANCE_SHARDS } from '../../shared/domain/ledger-shards';
import { formatCents, parseAmountToCents } from '../../shared/domain/money';
import type { Item } from '../../shared/adapters/dynamo/dynamo';
import type { SimulatedNotification } from '../../shared/adapters/providers/simulated';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, bearer, call, newAccount, type Reply, tokenFor } from '../support/api';
import { cardBody, common, createCustomerWithAddress } from '../support/charges';
import { balanceShards, ledgerEntriesOf, listedItems, reservedShards } from '../support/ledger';
import { notification, notify } from '../support/provider';

/**
 * Issue 11's property: random sequences of charges, payments, duplicate and concurrent notifications,
 * refunds, cancels, operator credits, withdrawals and their outcomes over 2–3 accounts (some steps run
 * at once) against the running local stack. After each run, for every account: balance = the sum of
 * its ledger entries = credits − debits recomputed from its invoices and withdrawals; no entry is
 * duplicated; the API's answers ("applied") agree with the stored states.
 *
 * Reproduce a failure: fast-check prints the seed and path; run with LEDGER_PROPERTY_SEED=<seed>
 * (e.g. LEDGER_PROPERTY_SEED=1718023456). Failures are not shrunk (endOnFailure): each run drives the
 * whole stack for seconds, and the printed counterexample is already small.
 */

type ChargeMethod = 'pix' | 'boleto' | 'card' | 'declined';
type Op =
  | { kind: 'charge'; account: number; method: ChargeMethod; cents: number }
  | { kind: 'pay' | 'refund' | 'cancel'; invoice: number; copies: number }
  | { kind: 'credit'; account: number; cents: number }
  | { kind: 'withdraw'; account: number; cents: number }
  | { kind: 'overdraw'; account: number }
  | { kind: 'outcome'; withdraw: number; outcome: 'paid' | 'refused'; copies: number };
/** Each account: its withdraw fee and an opening operator credit (0: none). */
type Scenario = { accounts: { feeCents: number; openingCents: number }[]; steps: Op[][] };

type AccountRun = { keys: IssuedKeys; auth: Record<string, string>; customer: number; feeCents: number; credited: number[] };
type InvoiceRun = {
  account: number;
  reference: string;
  txid: string;
  method: 'pix' | 'boleto' | 'card';
  applied: { pay: number; refund: number; cancel: number };
  /** An attempt's outcome was unknown: `applied` counts only the answers seen (the stored status is then not predicted). */
  unknown: boolean;
};
type WithdrawRun = { account: number; reference: string; applied: { paid: number; refused: number }; unknown: boolean };
/** What a run met (printed at the end; only the properties are asserted). */
type Tally = { busy: number; applied: number; ignored: number; refused: number; statements: number };
type RunState = { accounts: AccountRun[]; invoices: InvoiceRun[]; withdrawals: WithdrawRun[]; tally: Tally };

/** More than any run can credit (at most 36 operations of at most 1 000.00 each): always refused. */
const OVERDRAW_CENTS = 500_000_000;

const account = fc.nat({ max: 2 });
const copies = fc.integer({ min: 1, max: 5 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('charge' as const),
      account,
      method: fc.constantFrom<ChargeMethod>('pix', 'pix', 'boleto', 'card', 'declined'),
      cents: fc.integer({ min: 100, max: 50_000 }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pay' as const), invoice: fc.nat({ max: 20 }), copies }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('refund' as const, 'cancel' as const), invoice: fc.nat({ max: 20 }), copies }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('credit' as const), account, cents: fc.integer({ min: 100, max: 100_000 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), account, cents: fc.integer({ min: 100, max: 30_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('overdraw' as const), account }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('outcome' as const),
      withdraw: fc.nat({ max: 20 }),
      outcome: fc.constantFrom('paid' as const, 'refused' as const),
      copies,
    }),
  },
);
// A step is one operation, or 2–3 run at once (Promise.all). At most 12 × 3 = 36 API calls hit one
// account: under its 60 a minute with the setup and final reads.
const step = fc.oneof(
  { weight: 2, arbitrary: fc.array(op, { minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.array(op, { minLength: 2, maxLength: 3 }) },
);
const scenario: fc.Arbitrary<Scenario> = fc.record({
  accounts: fc.array(fc.record({ feeCents: fc.constantFrom(0, 0, 37, 150), openingCents: fc.constantFrom(0, 5_000, 40_000) }), { minLength: 2, maxLength: 3 }),
  steps: fc.array(step, { minLength: 5, maxLength: 12 }),
});

/** Signed 2-decimal API amounts ("-10.50") as integer cents, without floats. */
function centsOf(amount: string): number {
  return amount.startsWith('-') ? -parseAmountToCents(amount.slice(1)) : parseAmountToCents(amount);
}

/** Integer cents as the request's money number (the API takes JSON numbers with at most 2 decimals). */
function reais(cents: number): number {
  return Number(formatCents(cents));
}

/** A client's call: a 503 is retried with the same Idempotency-Key after Retry-After, then with backoff and full jitter. */
async function callAsClient(state: RunState, path: string, headers: Record<string, string>, body: object): Promise<Reply> {
  const withKey = { ...headers, 'idempotency-key': `prop-${randomUUID()}` };
  for (let attempt = 1; ; attempt += 1) {
    const reply = await call('POST', path, { headers: withKey, body });
    if (reply.status !== 503 || attempt >= 30) return reply;
    state.tally.busy += 1;
    const ceiling = Math.min(8_000, Number(reply.headers['retry-after'] ?? 1) * 1000 * 2 ** (attempt - 1));
    await new Promise((resolve) => setTimeout(resolve, ceiling * Math.random()));
  }
}

/** An operator credit; a transient conflict (nothing written) is run again, as an operator would. */
async function operatorCredit(accountId: string, cents: number): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await creditAccount(accountStore(), accountId, cents, 'Property test credit');
      return;
    } catch (err) {
      if (!(err instanceof TemporaryConflictError) || attempt >= 10) throw err;
    }
  }
}

/** Sends the same notification `copies` times at once (each retried on 503 as a provider does); returns how many applied it. */
/**
 * Sends a notification as a provider does: a 503 or a lost connection is sent again (backoff, full jitter)
 * until another answer comes. `unknown` when an attempt's outcome is unknown (a lost connection, or a 503
 * past the request's deadline, Retry-After 2: it may have been applied, and the next answer says "not applied").
 */
async function deliver(built: SimulatedNotification): Promise<{ final: Reply; unknown: boolean; seen: Reply[] }> {
  const seen: Reply[] = [];
  let unknown = false;
  for (let attempt = 1; ; attempt += 1) {
    const reply = await notify(built).catch(() => undefined);
    if (reply) seen.push(reply);
    if (reply && (reply.status !== 503 || attempt >= 30)) return { final: reply, unknown, seen };
    unknown ||= !reply || reply.headers['retry-after'] !== '1';
    const ceiling = Math.min(8_000, Number(reply?.headers['retry-after'] ?? 1) * 1000 * 2 ** (attempt - 1));
    await new Promise((resolve) => setTimeout(resolve, ceiling * Math.random()));
  }
}

/** Sends the same notification `count` times at once; how many copies answered "applied" and whether any outcome is unknown. */
async function notifyCopies(state: RunState, built: SimulatedNotification, count: number): Promise<{ applied: number; unknown: boolean }> {
  const answers = await Promise.all(Array.from({ length: count }, () => deliver(built)));
  const seen = answers.flatMap((answer) => answer.seen);
  expect(seen.filter((reply) => reply.status === 500)).toHaveLength(0);
  for (const { final } of answers)
    expect({ status: final.status, json: final.json }).toMatchObject({ status: 200, json: { received: true, applied: expect.any(Boolean) } });
  const applied = answers.filter(({ final }) => (final.json as { applied?: boolean }).applied === true).length;
  expect(applied, `copies of ${built.type} ${built.id} applied more than once`).toBeLessThanOrEqual(1);
  state.tally.applied += applied;
  state.tally.ignored += count - applied;
  state.tally.busy += seen.filter((reply) => reply.status === 503).length;
  return { applied, unknown: answers.some((answer) => answer.unknown) };
}

async function charge(state: RunState, o: Extract<Op, { kind: 'charge' }>): Promise<void> {
  const index = o.account % state.accounts.length;
  const acct = state.accounts[index];
  if (!acct) return;
  const money = { amount: reais(o.cents), quantity: 1, tax: 0, discount: 0 };
  const [path, body] =
    o.method === 'pix'
      ? ['/api/pix/create', common(money)]
      : o.method === 'boleto'
        ? ['/api/boleto/create', { ...common(money), customer: acct.customer }]
        : ['/api/creditcard/create', cardBody({ ...money, ...(o.method === 'declined' ? { creditcard_number: '4000000000000002' } : {}) })];
  const reply = await callAsClient(state, path, acct.auth, body);
  if (o.method === 'declined') {
    expect({ status: reply.status, json: reply.json }).toMatchObject({ status: 400, json: { code: 'card_declined' } });
    return;
  }
  expect({ status: reply.status, text: reply.text }).toMatchObject({ status: 200 });
  const invoice = (reply.json as { invoice: { reference: string; txid?: string; status: string; total: string } }).invoice;
  expect(invoice).toMatchObject({ total: formatCents(o.cents) });
  state.invoices.push({
    account: index,
    reference: invoice.reference,
    txid: invoice.txid ?? '',
    method: o.method,
    applied: { pay: 0, refund: 0, cancel: 0 },
    unknown: false,
  });
}

async function invoiceNotification(state: RunState, o: Extract<Op, { kind: 'pay' | 'refund' | 'cancel' }>): Promise<void> {
  const invoice = state.invoices[o.invoice % Math.max(1, state.invoices.length)];
  if (!invoice) return;
  // A card is paid at creation: its "payment" notification is a late duplicate that must change nothing.
  const built =
    o.kind === 'pay'
      ? invoice.method === 'pix'
        ? notification('pix-paid', { txid: invoice.txid })
        : notification('boleto-paid', { reference: invoice.reference })
      : notification(o.kind, { reference: invoice.reference });
  // Awaited first: `x += await y` would read x before the await and lose a concurrent step's count.
  const { applied, unknown } = await notifyCopies(state, built, o.copies);
  invoice.applied[o.kind] += applied;
  invoice.unknown ||= unknown;
}

async function withdraw(state: RunState, accountIndex: number, cents: number): Promise<void> {
  const index = accountIndex % state.accounts.length;
  const acct = state.accounts[index];
  if (!acct) return;
  const reply = await callAsClient(state, '/api/pixout/create', acct.auth, { amount: reais(cents), pixkey: 'ledger-property@example.com', keytype: 'EMAIL' });
  if (cents === OVERDRAW_CENTS || reply.status !== 200) {
    expect({ status: reply.status, json: reply.json }).toMatchObject({ status: 400, json: { code: 'insufficient_balance' } });
    state.tally.refused += 1;
    return;
  }
  const made = (reply.json as { withdraw: { reference: string; status: string; fee: string } }).withdraw;
  expect(made).toMatchObject({ status: 'PENDING', fee: formatCents(acct.feeCents) });
  state.withdrawals.push({ account: index, reference: made.reference, applied: { paid: 0, refused: 0 }, unknown: false });
}

async function withdrawOutcome(state: RunState, o: Extract<Op, { kind: 'outcome' }>): Promise<void> {
  const made = state.withdrawals[o.withdraw % Math.max(1, state.withdrawals.length)];
  if (!made) return;
  const built = notification(o.outcome === 'paid' ? 'withdraw-paid' : 'withdraw-refused', { reference: made.reference });
  const { applied, unknown } = await notifyCopies(state, built, o.copies);
  made.applied[o.outcome] += applied;
  made.unknown ||= unknown;
}

async function perform(state: RunState, o: Op): Promise<void> {
  switch (o.kind) {
    case 'charge':
      return charge(state, o);
    case 'pay':
    case 'refund':
    case 'cancel':
      return invoiceNotification(state, o);
    case 'credit': {
      const acct = state.accounts[o.account % state.accounts.length];
      if (!acct) return;
      await operatorCredit(acct.keys.account_id, o.cents);
      acct.credited.push(o.cents);
      return;
    }
    case 'withdraw':
      return withdraw(state, o.account, o.cents);
    case 'overdraw':
      return withdraw(state, o.account, OVERDRAW_CENTS);
    case 'outcome':
      return withdrawOutcome(state, o);
  }
}

async function getItem(key: { PK: string; SK: string }): Promise<Item> {
  const store = accountStore();
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }));
  if (!out.Item) throw new Error(`missing item ${key.PK}`);
  return out.Item;
}

/** The status an invoice must have after the moves its notifications answered `applied: true` to. */
/** The status the applied answers predict; `paidAfterCancel`: the invoice was paid after it was canceled (issue 17: credited once). */
function expectedInvoiceStatus(invoice: InvoiceRun, paidAfterCancel: boolean): string {
  const paid = invoice.method === 'card' || invoice.applied.pay === 1;
  if (invoice.applied.refund === 1) return 'REFUNDED';
  if (invoice.applied.cancel === 2) return 'CANCELED'; // canceled, paid late, canceled again
  if (invoice.applied.cancel === 1) return paid && paidAfterCancel ? 'PAID' : 'CANCELED';
  return paid ? 'PAID' : 'PENDING';
}

function count(entries: readonly Item[], type: string, reference: string): Item[] {
  return entries.filter((entry) => entry.entryType === type && entry.reference === reference);
}

/** The statement route's transactions of an account, every page; undefined when the route does not exist (yet). */
async function statement(auth: Record<string, string>): Promise<{ id: string; amount: string }[] | undefined> {
  const out: { id: string; amount: string }[] = [];
  for (let page = 1; page <= 20; page += 1) {
    const reply = await call('GET', `/api/balance/transactions?page=${page}&limit=50`, { headers: auth });
    if (reply.status === 404 && page === 1) return undefined;
    expect({ status: reply.status, text: reply.text }).toMatchObject({ status: 200 });
    const transactions = (reply.json as { transactions: { id: string; amount: string }[] }).transactions;
    out.push(...transactions);
    if (transactions.length < 50) return out;
  }
  throw new Error('statement longer than 20 pages');
}

async function checkAccount(state: RunState, index: number): Promise<void> {
  const acct = state.accounts[index];
  if (!acct) throw new Error('no account');
  const accountId = acct.keys.account_id;
  const invoices = state.invoices.filter((invoice) => invoice.account === index);
  const withdrawals = state.withdrawals.filter((made) => made.account === index);

  // Every invoice and withdraw the account has is one this run made (nothing extra, nothing lost).
  const listedInvoices = (await listedItems(keys.invoiceListPartition(accountId))).map((item) => String(item.reference));
  const listedWithdrawals = (await listedItems(keys.withdrawListPartition(accountId))).map((item) => String(item.reference));
  expect(new Set(listedInvoices)).toEqual(new Set(invoices.map((invoice) => invoice.reference)));
  expect(new Set(listedWithdrawals)).toEqual(new Set(withdrawals.map((made) => made.reference)));
  const invoiceItems = await Promise.all(invoices.map((invoice) => getItem(keys.invoice(invoice.reference))));
  const withdrawItems = await Promise.all(withdrawals.map((made) => getItem(keys.withdraw(made.reference))));

  // The balance shards and every shard's entry partition (issue 13: the balance is the sum of the shards).
  const [shards, reservedParts, stored] = await Promise.all([balanceShards(accountId), reservedShards(accountId), ledgerEntriesOf(accountId)]);
  const entries = stored.filter((item) => item.type === LEDGER_ITEM_TYPE && String(item.PK).startsWith(LEDGER_PK_PREFIX));
  const balance = shards.reduce((sum, cents) => sum + cents, 0);
  const ledgerSum = entries.reduce((sum, entry) => sum + Number(entry.amountCents), 0);
  const apiReply = await call('GET', '/api/balance', { headers: acct.auth });
  expect(apiReply.status).toBe(200);
  const apiBalance = centsOf((apiReply.json as { balance: { available: string } }).balance.available);
  const reserved = reservedParts.reduce((sum, cents) => sum + cents, 0);
  const reservedSum = entries.reduce((sum, entry) => sum + Number(entry.reservedCents ?? 0), 0);
  const apiReserved = centsOf((apiReply.json as { balance: { reserved: string } }).balance.reserved);

  // (a) The balance (item and API) is the sum of the entries; so is the reserved balance, of their reserved parts.
  expect({ api: apiBalance, item: balance }).toEqual({ api: ledgerSum, item: ledgerSum });
  expect({ api: apiReserved, item: reserved }).toEqual({ api: reservedSum, item: reservedSum });

  // The API's "applied" answers agree with the stored states.
  invoices.forEach((invoice, i) => {
    const late = invoiceItems[i]?.paidAfterCancel === true;
    // Only a Pix or boleto paid after a cancel is flagged.
    expect(late && (invoice.method === 'card' || invoice.applied.pay !== 1 || invoice.applied.cancel < 1), `late flag of ${invoice.reference}`).toBe(false);
    expect(invoice.applied.pay + (invoice.method === 'card' ? 1 : 0), `payments of ${invoice.reference}`).toBeLessThanOrEqual(1);
    expect(invoice.applied.refund + invoice.applied.cancel - (late ? 1 : 0), `reversals of ${invoice.reference}`).toBeLessThanOrEqual(1);
    if (!invoice.unknown)
      expect({ reference: invoice.reference, status: invoiceItems[i]?.status }).toEqual({
        reference: invoice.reference,
        status: expectedInvoiceStatus(invoice, late),
      });
  });
  withdrawals.forEach((made, i) => {
    expect(made.applied.paid + made.applied.refused, `outcomes of ${made.reference}`).toBeLessThanOrEqual(1);
    const expected = made.applied.paid === 1 ? 'PAID' : made.applied.refused === 1 ? 'CANCELED' : 'PENDING';
    if (!made.unknown) expect({ reference: made.reference, status: withdrawItems[i]?.status }).toEqual({ reference: made.reference, status: expected });
  });

  // (b) Credits − debits from the invoices and withdrawals alone, plus the operator's credits.
  const adjustments = entries.filter((entry) => entry.entryType === 'adjustment');
  expect(adjustments.map((entry) => Number(entry.amountCents)).sort((x, y) => x - y)).toEqual([...acct.credited].sort((x, y) => x - y));
  const credits = invoiceItems.reduce((sum, item) => sum + (item.status === 'PAID' ? Number(item.totalCents) : 0), 0);
  const debits = withdrawItems.reduce((sum, item) => sum + (item.status === 'CANCELED' ? 0 : Number(item.amountCents) + Number(item.feeCents)), 0);
  // What is held is exactly amount + fee of every withdrawal the bank has not answered (two-phase: pending transfers).
  const held = withdrawItems.reduce((sum, item) => sum + (item.status === 'PENDING' ? Number(item.amountCents) + Number(item.feeCents) : 0), 0);
  expect({ held }).toEqual({ held: reserved });
  const operator = acct.credited.reduce((sum, cents) => sum + cents, 0);
  expect({ recomputed: credits - debits + operator }).toEqual({ recomputed: balance });

  // (c) No entry duplicated, each of the right amount; every entry belongs to something of the account.
  expect(new Set(entries.map((entry) => entry.entryId)).size).toBe(entries.length);
  for (const item of invoiceItems) {
    const reference = String(item.reference);
    const payments = count(entries, 'payment', reference);
    const refunds = count(entries, 'refund', reference);
    const total = Number(item.totalCents);
    const wasPaid = item.status === 'PAID' || item.status === 'REFUNDED' || (item.status === 'CANCELED' && payments.length > 0);
    expect({ reference, payments: payments.map((e) => e.amountCents) }).toEqual({ reference, payments: wasPaid ? [total] : [] });
    const reversed = item.status === 'REFUNDED' || (item.status === 'CANCELED' && wasPaid);
    expect({ reference, refunds: refunds.map((e) => e.amountCents) }).toEqual({ reference, refunds: reversed ? [-total] : [] });
  }
  for (const item of withdrawItems) {
    const reference = String(item.reference);
    const amount = Number(item.amountCents);
    const fee = Number(item.feeCents);
    expect(fee).toBe(acct.feeCents);
    // Each phase once: held (amount and fee: available −, reserved +), then posted (paid) or released (refused).
    const parts = (type: string) => count(entries, type, reference).map((e) => [Number(e.amountCents), Number(e.reservedCents ?? 0)]);
    expect({
      reference,
      withdrawal: parts('withdrawal'),
      fee: parts('withdrawal_fee'),
      posted: parts('withdrawal_posted'),
      release: parts('withdrawal_release'),
    }).toEqual({
      reference,
      withdrawal: [[-amount, amount]],
      fee: fee > 0 ? [[-fee, fee]] : [],
      posted: item.status === 'PAID' ? [[0, -(amount + fee)]] : [],
      release: item.status === 'CANCELED' ? [[amount + fee, -(amount + fee)]] : [],
    });
  }
  const owned = new Set([...invoices.map((invoice) => invoice.reference), ...withdrawals.map((made) => made.reference)]);
  expect(entries.filter((entry) => entry.entryType !== 'adjustment' && !owned.has(String(entry.reference)))).toEqual([]);

  // (e) No shard below zero after any mix of credits and withdrawals: a withdrawal takes from a shard only
  // what it holds. Only a reversal (a refund, or a cancel after payment: never refused) may take its
  // payment's shard below zero, and never below minus the reversals recorded in that shard.
  expect(shards).toHaveLength(BALANCE_SHARDS);
  shards.forEach((cents, shard) => {
    const reversed = entries
      .filter((entry) => entry.shard === shard && entry.entryType === 'refund')
      .reduce((sum, entry) => sum - Number(entry.amountCents), 0);
    expect({ shard, cents, floor: -reversed }).toEqual({ shard, cents: Math.max(cents, -reversed), floor: -reversed });
  });
  if (!entries.some((entry) => entry.entryType === 'refund')) expect(shards.filter((cents) => cents < 0)).toEqual([]);

  // (d) The statement route sums to the same (another helper is adding it: a 404 skips only this sub-check).
  const lines = await statement(acct.auth);
  if (lines) {
    state.tally.statements += 1;
    const byId = Object.fromEntries(lines.map((line) => [line.id, centsOf(line.amount)]));
    expect(lines).toHaveLength(entries.length);
    expect(byId).toEqual(Object.fromEntries(entries.map((entry) => [String(entry.entryId), Number(entry.amountCents)])));
    expect(lines.reduce((sum, line) => sum + centsOf(line.amount), 0)).toBe(balance);
  }
}

async function setUp(plan: Scenario['accounts']): Promise<RunState> {
  const accounts = await Promise.all(
    plan.map(async ({ feeCents, openingCents }): Promise<AccountRun> => {
      const issued = await newAccount(undefined, feeCents);
      const auth = bearer(await tokenFor(issued));
      if (openingCents > 0) await operatorCredit(issued.account_id, openingCents);
      return { keys: issued, auth, customer: await createCustomerWithAddress(auth), feeCents, credited: openingCents > 0 ? [openingCents] : [] };
    }),
  );
  return { accounts, invoices: [], withdrawals: [], tally: { busy: 0, applied: 0, ignored: 0, refused: 0, statements: 0 } };
}

describe('ledger properties (the running local stack)', () => {
  it('after random concurrent sequences, every balance = its ledger sum = credits − debits recomputed, and no entry is duplicated', async () => {
    const seed = process.env.LEDGER_PROPERTY_SEED;
    const totals = { runs: 0, operations: 0, invoices: 0, withdrawals: 0, busy: 0, applied: 0, ignored: 0, refused: 0, statements: 0 };
    await fc.assert(
      fc.asyncProperty(scenario, async ({ accounts, steps }) => {
        const state = await setUp(accounts);
        for (const group of steps) await Promise.all(group.map((o) => perform(state, o)));
        for (let index = 0; index < state.accounts.length; index += 1) await checkAccount(state, index);
        totals.runs += 1;
        totals.operations += steps.flat().length;
        totals.invoices += state.invoices.length;
        totals.withdrawals += state.withdrawals.length;
        for (const key of ['busy', 'applied', 'ignored', 'refused', 'statements'] as const) totals[key] += state.tally[key];
      }),
      { numRuns: 10, endOnFailure: true, ...(seed ? { seed: Number(seed) } : {}) },
    );
    console.info(`ledger properties: ${JSON.stringify(totals)}`);
    expect(totals.runs).toBe(10);
  }, 240_000);
});

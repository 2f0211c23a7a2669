/**
 * Issue 11, the statement: GET /api/balance/transactions over HTTP against the local stack, after one
 * movement of every kind (card payment, Pix paid by notification, operator credit, a withdrawal with a
 * fee paid by the bank (held, then posted), a refused one (held, then released), a refund). Each entry
 * shows its movement of the available balance (`amount`) and of the reserved one (`reserved`).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_METHODS } from '../../shared/domain/payment-methods';
import { brazilDate } from '../../shared/domain/brazil-dates';
import { adjustment } from '../../shared/domain/ledger';
import { transferWrites } from '../../shared/adapters/dynamo/ledger';
import { parseAmountToCents } from '../../shared/domain/money';
import { commitWrites } from '../../shared/adapters/dynamo/transact';
import { accountStore, admin, bearer, call, newAccount, tokenFor } from '../support/api';
import { cardBody, common, createCharge } from '../support/charges';
import { availableBalance, reservedBalance } from '../support/ledger';
import { notification, notify } from '../support/provider';

type Transaction = { id: string; type: string; amount: string; reserved: string; reference: string; description: string; created_at: string };
type Statement = { transactions: Transaction[]; pagination: { page: number; limit: number } };
/** One expected entry: type, signed amount, signed reserved part and reference. */
type Expected = readonly [type: string, amount: string, reserved: string, reference: string];

const PATH = '/api/balance/transactions';
const WITHDRAW_FEE_CENTS = 150;

let auth: Record<string, string>;
/** The movements in the order they were made, each the entries it wrote (a withdrawal writes two at the same instant). */
let movements: Expected[][];
let adjustmentEntryId: string;

async function statement(query: Record<string, string> = {}, headers = auth): Promise<Statement> {
  const reply = await call('GET', `${PATH}?${new URLSearchParams(query).toString()}`, { headers });
  if (reply.status !== 200) throw new Error(`statement: ${reply.status} ${reply.text}`);
  return reply.json as Statement;
}

/** A signed 2-decimal string as integer cents ("-1.50" → -150). */
function signedCents(amount: string): number {
  return amount.startsWith('-') ? -parseAmountToCents(amount.slice(1)) : parseAmountToCents(amount);
}

function shown(t: Transaction): string {
  return `${t.type} ${t.amount} ${t.reserved} ${t.reference}`;
}

/** The day after a YYYY-MM-DD date (or before, with -1). */
function dayAfter(date: string, days = 1): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

async function withdraw(amount: number): Promise<string> {
  const reply = await call('POST', '/api/pixout/create', {
    headers: { ...auth, 'idempotency-key': `stmt-${randomUUID()}` },
    body: { amount, pixkey: 'fornecedor@example.com', keytype: 'EMAIL', description: 'Fornecedor' },
  });
  if (reply.status !== 200) throw new Error(`withdraw: ${reply.status} ${reply.text}`);
  return (reply.json as { withdraw: { reference: string } }).withdraw.reference;
}

beforeAll(async () => {
  const keys = await newAccount([...PAYMENT_METHODS], WITHDRAW_FEE_CENTS);
  auth = bearer(await tokenFor(keys));
  const exact = { quantity: 1, tax: 0, discount: 0 };

  const card = await createCharge('creditcard', auth, cardBody({ ...exact, amount: 30 }));
  expect(card.status).toBe(200);
  const cardRef = String(card.invoice.reference);

  const pix = await createCharge('pix', auth, common({ ...exact, amount: 20 }));
  expect(pix.status).toBe(200);
  const pixRef = String(pix.invoice.reference);
  expect((await notify(notification('pix-paid', { txid: String(pix.invoice.txid) }))).json).toEqual({ received: true, applied: true });

  const credit = await admin('account', 'credit', '--account', keys.account_id, '--amount', '100.00');
  expect(credit.code).toBe(0);
  const credited = credit.json as { entry_id: string; reference: string; created_at: string };
  adjustmentEntryId = credited.entry_id;

  const paidOut = await withdraw(10);
  const refused = await withdraw(5);
  expect((await notify(notification('withdraw-refused', { reference: refused }))).json).toEqual({ received: true, applied: true });
  expect((await notify(notification('withdraw-paid', { reference: paidOut }))).json).toEqual({ received: true, applied: true });

  expect((await notify(notification('refund', { reference: cardRef }))).json).toEqual({ received: true, applied: true });

  movements = [
    [['payment', '30.00', '0.00', cardRef]],
    [['payment', '20.00', '0.00', pixRef]],
    [['adjustment', '100.00', '0.00', credited.reference]],
    [
      ['withdrawal', '-10.00', '10.00', paidOut],
      ['withdrawal_fee', '-1.50', '1.50', paidOut],
    ],
    [
      ['withdrawal', '-5.00', '5.00', refused],
      ['withdrawal_fee', '-1.50', '1.50', refused],
    ],
    [['withdrawal_release', '6.50', '-6.50', refused]],
    [['withdrawal_posted', '0.00', '-11.50', paidOut]],
    [['refund', '-30.00', '0.00', cardRef]],
  ];
}, 60_000);

describe('GET /api/balance/transactions', () => {
  it('lists every entry newest first, with signed amounts and references; the page shape is the documented one', async () => {
    const reply = await call('GET', PATH, { headers: auth });
    expect(reply.status).toBe(200);
    const body = reply.json as Statement;
    expect(Object.keys(body).sort()).toEqual(['pagination', 'transactions']);
    expect(body.pagination).toEqual({ page: 1, limit: 10 });
    const entries = body.transactions;
    expect(entries).toHaveLength(10);
    for (const t of entries) {
      expect(Object.keys(t).sort()).toEqual(['amount', 'created_at', 'description', 'id', 'reference', 'reserved', 'type']);
      expect(t.reserved).toMatch(/^-?\d+\.\d{2}$/);
      expect(t.id).toMatch(/^txn_[A-Za-z0-9]{24}$/);
      expect(t.amount).toMatch(/^-?\d+\.\d{2}$/);
      expect(t.description.length).toBeGreaterThan(0);
      expect(new Date(t.created_at).toISOString()).toBe(t.created_at);
    }
    expect(new Set(entries.map((t) => t.id)).size).toBe(10);
    // Newest first: movement by movement (the entries of one movement share its instant, in id order).
    let at = 0;
    for (const movement of [...movements].reverse()) {
      const group = entries.slice(at, at + movement.length);
      at += movement.length;
      expect(group.map(shown).sort()).toEqual(movement.map((e) => e.join(' ')).sort());
      expect(new Set(group.map((t) => t.created_at)).size).toBe(1);
    }
    for (let i = 1; i < entries.length; i += 1) {
      const [newer, older] = [entries[i - 1], entries[i]];
      if (!newer || !older) continue;
      expect(newer.created_at >= older.created_at, `${shown(newer)} before ${shown(older)}`).toBe(true);
      if (newer.created_at === older.created_at) expect(newer.id > older.id).toBe(true);
      else expect(newer.created_at > older.created_at).toBe(true);
    }
    expect(entries.find((t) => t.type === 'adjustment')?.id).toBe(adjustmentEntryId);
  });

  it('sums to the available balance of GET /api/balance', async () => {
    const entries = (await statement({ limit: '50' })).transactions;
    const sum = entries.reduce((total, t) => total + signedCents(t.amount), 0);
    const expected = movements.flat().reduce((total, [, amount]) => total + signedCents(amount), 0);
    expect(sum).toBe(expected);
    expect(sum).toBe(signedCents(await availableBalance(auth)));
    expect(await availableBalance(auth)).toBe('108.50');
    // Both withdrawals answered: nothing is held any more, and the reserved parts of the entries sum to that.
    expect(entries.reduce((total, t) => total + signedCents(t.reserved), 0)).toBe(0);
    expect(await reservedBalance(auth)).toBe('0.00');
  });

  it('filters by type', async () => {
    const fees = (await statement({ type: 'withdrawal_fee' })).transactions;
    const [refusedFee, paidFee] = [movements[4]?.[1], movements[3]?.[1]];
    expect(fees.map(shown)).toEqual([refusedFee, paidFee].map((e) => e?.join(' ')));
    const second = await statement({ type: 'withdrawal_fee', limit: '1', page: '2' });
    expect(second.transactions.map((t) => t.id)).toEqual([fees[1]?.id]);
    expect(second.pagination).toEqual({ page: 2, limit: 1 });
    expect((await statement({ type: 'payment' })).transactions.map((t) => t.type)).toEqual(['payment', 'payment']);
    expect((await statement({ type: 'adjustment' })).transactions.map((t) => t.id)).toEqual([adjustmentEntryId]);
  });

  it('pages through without overlap or gap', async () => {
    const all = (await statement({ limit: '50' })).transactions.map((t) => t.id);
    const pages = await Promise.all([1, 2, 3, 4].map((page) => statement({ page: String(page), limit: '4' })));
    expect(pages.map((p) => p.transactions.length)).toEqual([4, 4, 2, 0]);
    expect(pages.map((p) => p.pagination)).toEqual([1, 2, 3, 4].map((page) => ({ page, limit: 4 })));
    expect(pages.flatMap((p) => p.transactions.map((t) => t.id))).toEqual(all);
  });

  it('takes start and end as Brazil dates, inclusive, each alone or together', async () => {
    const entries = (await statement({ limit: '50' })).transactions;
    const newest = entries[0];
    if (!newest) throw new Error('no entries');
    const today = brazilDate(new Date(newest.created_at));
    expect((await statement({ start: today, end: today })).transactions.map((t) => t.id)).toContain(newest.id);
    expect((await statement({ start: today })).transactions.map((t) => t.id)).toContain(newest.id);
    expect((await statement({ end: today })).transactions.map((t) => t.id)).toContain(newest.id);
    expect((await statement({ start: dayAfter(today) })).transactions).toEqual([]);
    expect((await statement({ end: dayAfter(today, -1) })).transactions.filter((t) => t.id === newest.id)).toEqual([]);
  });

  it('cuts days at midnight in Brazil (UTC−3), the last millisecond of a day included', async () => {
    const keys = await newAccount();
    const own = bearer(await tokenFor(keys));
    const store = accountStore();
    const times = ['2026-03-10T02:59:59.999Z', '2026-03-10T03:00:00.000Z', '2026-03-11T02:59:59.999Z', '2026-03-11T03:00:00.000Z'];
    for (const [i, at] of times.entries()) {
      await commitWrites(
        store.db,
        transferWrites(store.table, adjustment({ accountId: keys.account_id, reference: `boundary-${i}`, description: 'Boundary', at }, 100 + i)),
      );
    }
    const refs = async (query: Record<string, string>) => (await statement(query, own)).transactions.map((t) => t.reference);
    expect(await refs({ start: '2026-03-09', end: '2026-03-09' })).toEqual(['boundary-0']);
    expect(await refs({ start: '2026-03-10', end: '2026-03-10' })).toEqual(['boundary-2', 'boundary-1']);
    expect(await refs({ start: '2026-03-11' })).toEqual(['boundary-3']);
    expect(await refs({ end: '2026-03-09' })).toEqual(['boundary-0']);
    expect(await refs({ start: '2026-03-10' })).toEqual(['boundary-3', 'boundary-2', 'boundary-1']);
    expect(await refs({ start: '2026-03-12' })).toEqual([]);
    // The balance is still the sum of the entries.
    expect(await availableBalance(own)).toBe('4.06');
  });

  it('refuses a bad query with 422 naming the field', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ page: '0' }, 'page'],
      [{ page: 'x' }, 'page'],
      [{ limit: '51' }, 'limit'],
      [{ limit: '0' }, 'limit'],
      [{ type: 'foo' }, 'type'],
      [{ type: 'PAYMENT' }, 'type'],
      [{ start: '2026-13-01' }, 'start'],
      [{ end: '2026-02-30' }, 'end'],
      [{ start: '2026-03-02', end: '2026-03-01' }, 'end'],
    ];
    for (const [query, field] of cases) {
      const reply = await call('GET', `${PATH}?${new URLSearchParams(query).toString()}`, { headers: auth });
      expect(reply.status, JSON.stringify(query)).toBe(422);
      expect(Object.keys((reply.json as { error: Record<string, string[]> }).error), JSON.stringify(query)).toEqual([field]);
    }
    expect((await statement({ start: '2026-03-01', end: '2026-03-01', limit: '50', page: '1' })).pagination).toEqual({ page: 1, limit: 50 });
  });

  it("shows only the caller's entries: another account's never appear, either way", async () => {
    const other = await newAccount();
    const otherAuth = bearer(await tokenFor(other));
    const paid = await createCharge('creditcard', otherAuth, cardBody({ amount: 7, quantity: 1, tax: 0, discount: 0 }));
    expect(paid.status).toBe(200);
    const theirs = (await statement({ limit: '50' }, otherAuth)).transactions;
    expect(theirs.map(shown)).toEqual([`payment 7.00 0.00 ${String(paid.invoice.reference)}`]);
    const mine = (await statement({ limit: '50' })).transactions;
    expect(mine).toHaveLength(10);
    const mineIds = new Set(mine.map((t) => t.id));
    expect(theirs.filter((t) => mineIds.has(t.id))).toEqual([]);
    expect(mine.filter((t) => t.reference === String(paid.invoice.reference))).toEqual([]);
    expect((await call('GET', PATH)).status).toBe(401);
  });
});

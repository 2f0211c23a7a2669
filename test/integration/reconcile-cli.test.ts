import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/adapters/dynamo/keys';
import type { Reconciliation } from '../../shared/domain/reconciliation';
import { accountStore, admin, bearer, call, newAccount, stack, tokenFor } from '../support/api';
import { cardBody, createCharge } from '../support/charges';
import { availableBalance } from '../support/ledger';
import { ROOT } from '../support/local-stack-process';

/** The withdrawal of 30.00 + 1.50 is in flight: held, in the reserved balance and its entries alike. */
const HELD = { reserved: '31.50', reserved_ledger_sum: '31.50', reserved_difference: '0.00' };
type Run = { code: number; lines: Reconciliation[]; stdout: string; stderr: string };

/** `npm run admin -- account reconcile …` against the local stack, every stdout line parsed (`--all` prints one per account). */
async function reconcile(...args: string[]): Promise<Run> {
  const env = { ...process.env, PORT: String(stack().port), DYNAMODB_PORT: String(stack().dynamodbPort), NODE_NO_WARNINGS: '1' };
  const argv = ['--import', 'tsx', 'infra/admin/cli.ts', 'account', 'reconcile', ...args];
  let out: { code: number; stdout: string; stderr: string };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, argv, { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });
    out = { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    out = { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
  const lines = out.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Reconciliation);
  return { ...out, lines };
}

/** Moves a balance shard alone, as no code path may (the corruption reconciliation exists to find). */
async function nudgeBalance(accountId: string, cents: number, attribute: 'availableCents' | 'reservedCents' = 'availableCents'): Promise<void> {
  const store = accountStore();
  await store.db.send(
    new UpdateCommand({
      TableName: store.table,
      Key: keys.balanceShard(accountId, 0),
      UpdateExpression: `ADD ${attribute} :d`,
      ExpressionAttributeValues: { ':d': cents },
      ConditionExpression: 'attribute_exists(PK)',
    }),
  );
}

let accountId: string;
let untouchedId: string;
let auth: Record<string, string>;
/** Cents added to the balance item behind the ledger's back, still to be taken back. */
let corruption = 0;

describe('operator CLI: account reconcile', () => {
  beforeAll(async () => {
    // A credit (operator adjustment), a card payment and a withdrawal with its fee.
    const issued = await newAccount(undefined, 150);
    accountId = issued.account_id;
    auth = bearer(await tokenFor(issued));
    const credit = await admin('account', 'credit', '--account', accountId, '--amount', '100.00');
    if (credit.code !== 0) throw new Error(`credit: ${credit.stderr}`);
    const card = await createCharge('creditcard', auth, cardBody());
    if (card.invoice.status !== 'PAID') throw new Error(`card: ${card.status} ${card.text}`);
    const withdraw = await call('POST', '/api/pixout/create', {
      headers: { ...auth, 'idempotency-key': `reconcile-${Date.now()}` },
      body: { amount: 30, pixkey: '52998224725', keytype: 'CPF' },
    });
    if (withdraw.status !== 200) throw new Error(`withdraw: ${withdraw.status} ${withdraw.text}`);
    untouchedId = (await newAccount()).account_id;
    const untouchedCredit = await admin('account', 'credit', '--account', untouchedId, '--amount', '12.34');
    if (untouchedCredit.code !== 0) throw new Error(`credit: ${untouchedCredit.stderr}`);
  });

  afterAll(async () => {
    // Whatever failed above, the table is left consistent for the other test files.
    if (corruption !== 0) await nudgeBalance(accountId, -corruption);
  });

  it('reconciles an account after a credit, a card payment and a withdrawal: one line, difference 0.00', async () => {
    // 100.00 + 190.00 (the card's total) − 30.00 − 1.50 (the fee).
    expect(await availableBalance(auth)).toBe('258.50');
    const run = await reconcile('--account', accountId);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(run.lines).toEqual([{ account_id: accountId, balance: '258.50', ledger_sum: '258.50', difference: '0.00', ...HELD, ok: true }]);
  });

  it('finds a balance changed without a ledger entry: ok false, difference 0.01, exit 1 with one line on stderr', async () => {
    await nudgeBalance(accountId, 1);
    corruption += 1;
    const run = await reconcile('--account', accountId);
    expect(run.code).toBe(1);
    expect(run.lines).toEqual([{ account_id: accountId, balance: '258.51', ledger_sum: '258.50', difference: '0.01', ...HELD, ok: false }]);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/1 of 1 accounts differ/);
  });

  it('--all prints one line per account, the corrupted one ok false, and exits 1', { timeout: 120_000 }, async () => {
    expect(corruption).toBe(1);
    const run = await reconcile('--all');
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/accounts differ from the sum of their ledger entries/);
    const ids = run.lines.map((line) => line.account_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const line of run.lines)
      expect(Object.keys(line).sort()).toEqual([
        'account_id',
        'balance',
        'difference',
        'ledger_sum',
        'ok',
        'reserved',
        'reserved_difference',
        'reserved_ledger_sum',
      ]);
    // Other test files run beside this one: only this file's accounts are asserted on.
    expect(run.lines.find((line) => line.account_id === accountId)).toEqual({
      account_id: accountId,
      balance: '258.51',
      ledger_sum: '258.50',
      difference: '0.01',
      ...HELD,
      ok: false,
    });
    expect(run.lines.find((line) => line.account_id === untouchedId)).toEqual({
      account_id: untouchedId,
      balance: '12.34',
      ledger_sum: '12.34',
      difference: '0.00',
      reserved: '0.00',
      reserved_ledger_sum: '0.00',
      reserved_difference: '0.00',
      ok: true,
    });
  });

  it('finds a reserved balance changed without a ledger entry: ok false on the reserved sum alone, exit 1', async () => {
    await nudgeBalance(accountId, -1);
    corruption -= 1;
    await nudgeBalance(accountId, 5, 'reservedCents');
    try {
      const run = await reconcile('--account', accountId);
      expect(run.code).toBe(1);
      expect(run.lines).toEqual([
        {
          account_id: accountId,
          balance: '258.50',
          ledger_sum: '258.50',
          difference: '0.00',
          reserved: '31.55',
          reserved_ledger_sum: '31.50',
          reserved_difference: '0.05',
          ok: false,
        },
      ]);
    } finally {
      await nudgeBalance(accountId, -5, 'reservedCents');
      await nudgeBalance(accountId, 1);
      corruption += 1;
    }
  });

  it('reconciles again once the balance is put back', async () => {
    await nudgeBalance(accountId, -1);
    corruption -= 1;
    const run = await reconcile('--account', accountId);
    expect(run.code).toBe(0);
    expect(run.lines).toEqual([{ account_id: accountId, balance: '258.50', ledger_sum: '258.50', difference: '0.00', ...HELD, ok: true }]);
  });

  it('fails an unknown account with exit 1 and one line on stderr, nothing on stdout', async () => {
    const run = await reconcile('--account', 'acct_doesnotexist');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/acct_doesnotexist/);
  });

  it('refuses bad flags with exit 2 and one line on stderr, nothing on stdout', { timeout: 180_000 }, async () => {
    const cases = [[], ['--account', accountId, '--all'], ['--account', ''], ['--all=yes'], ['--acount', accountId], ['--account']];
    const runs = await Promise.all(cases.map((args) => reconcile(...args)));
    for (const [index, run] of runs.entries()) {
      const args = cases[index] ?? [];
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout, args.join(' ')).toBe('');
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });
});

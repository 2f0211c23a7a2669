import { randomUUID } from 'node:crypto';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { parseAmountToCents } from '../../shared/domain/money';
import type { Runtime } from '../../shared/wiring/runtime';
import { keys } from '../../shared/adapters/dynamo/keys';
import { call, json, pixBody } from '../payment-scenarios';
import type { Reply } from '../routes';
import { type Account, getBalance } from '../scenarios';
import { accountOf } from './analysis';
import { runPool } from './pool';

/** A PENDING Pix charge made through the real POST /api/pix/create handler, and what confirming it credits. */
export type PendingInvoice = { account: number; reference: string; txid: string; totalCents: number };

/** The accounts of one run and one pending invoice per notification, invoice i on account i mod accounts. */
export type RunFixture = { accounts: Account[]; invoices: PendingInvoice[] };

/** Creations in flight at once while preparing (the Pix route renders a QR code: CPU-bound on 2 cores). */
const CREATION_CONCURRENCY = 4;
/** A creation answered 503 (the account item's counter met a concurrent one) is sent again with its key. */
const CREATION_ATTEMPTS = 5;

/** Different totals per invoice, so a credit applied twice and one missed do not cancel out in the sum: (100 + n mod 37) × 2 + 5 % − 10 %. */
function pendingBody(n: number) {
  return { ...pixBody(n), amount: 100 + (n % 37) };
}

async function createPending(account: Account, accountIndex: number, n: number): Promise<PendingInvoice> {
  const idempotencyKey = `bench-contention-${randomUUID()}`;
  let reply: Reply | undefined;
  for (let attempt = 0; attempt < CREATION_ATTEMPTS; attempt += 1) {
    reply = await call('createPix', account, { body: pendingBody(n), idempotencyKey });
    if (reply.status !== 503) break;
  }
  if (reply?.status !== 200) throw new Error(`contention fixtures: Pix creation answered ${reply?.status} ${reply?.body.slice(0, 300)}`);
  const { invoice } = json<{ invoice: { reference: string; txid?: string; total: string } }>(reply);
  if (!invoice.txid) throw new Error('contention fixtures: a Pix charge without txid');
  return { account: accountIndex, reference: invoice.reference, txid: invoice.txid, totalCents: parseAmountToCents(invoice.total) };
}

/** Makes `accounts` fresh accounts and `notifications` pending Pix charges spread over them round-robin. */
export async function prepareRun(newAccount: (name: string) => Promise<Account>, label: string, accounts: number, notifications: number): Promise<RunFixture> {
  const made: Account[] = new Array<Account>(accounts);
  await runPool(accounts, CREATION_CONCURRENCY, async (i) => {
    made[i] = await newAccount(`Bench contention ${label} ${i}`);
  });
  const invoices: PendingInvoice[] = new Array<PendingInvoice>(notifications);
  await runPool(notifications, CREATION_CONCURRENCY, async (i) => {
    const index = accountOf(i, accounts);
    const account = made[index];
    if (!account) throw new Error('contention fixtures: missing account');
    invoices[i] = await createPending(account, index, i);
  });
  return { accounts: made, invoices };
}

/** The available balance GET /api/balance answers for each account, in cents. */
export async function balancesCents(accounts: readonly Account[]): Promise<number[]> {
  const balances: number[] = new Array<number>(accounts.length).fill(0);
  await runPool(accounts.length, 8, async (i) => {
    const account = accounts[i];
    if (!account) return;
    const reply = await getBalance(account);
    if (reply.status !== 200) throw new Error(`contention check: GET /api/balance answered ${reply.status} ${reply.body.slice(0, 300)}`);
    balances[i] = parseAmountToCents(json<{ balance: { available: string } }>(reply).balance.available);
  });
  return balances;
}

/** How many of the invoices are stored as PAID (strongly consistent reads, 100 keys per call). */
export async function paidCount(runtime: Runtime, references: readonly string[]): Promise<number> {
  const table = runtime.config.tableName;
  let paid = 0;
  for (let start = 0; start < references.length; start += 100) {
    let pending: Array<Record<string, unknown>> = references.slice(start, start + 100).map((reference) => keys.invoice(reference));
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 10) throw new Error('contention check: BatchGetItem kept leaving keys unprocessed');
      const out = await runtime.db.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }));
      paid += (out.Responses?.[table] ?? []).filter((item) => item.status === 'PAID').length;
      pending = out.UnprocessedKeys?.[table]?.Keys ?? [];
    }
  }
  return paid;
}

import { randomUUID } from 'node:crypto';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as createBoleto } from '../../functions/charges/boleto';
import { handler as createPix } from '../../functions/charges/pix';
import { runAsFunction } from '../../infra/local/iam/hook';
import { keys } from '../../shared/adapters/dynamo/keys';
import { dynamoPixSweep } from '../../shared/adapters/dynamo/invoices';
import { invoiceByTxid } from '../../shared/adapters/dynamo/invoice-lookup';
import { pixSweep } from '../../shared/app/invoices/pix-sweep';
import { parseAmountToCents } from '../../shared/domain/money';
import { routes } from '../../shared/http/routes';
import { pixSweepWorker } from '../../shared/platform/queues';
import { getRuntime } from '../../shared/wiring/runtime';
import { pixSweepPorts } from '../../shared/wiring/invoices';
import { type ApiPixEnvironment, apiPixMerchant, startApiPixEnvironment } from '../support/apipix-env';
import { common } from '../support/charges';
import { invoke } from '../support/invoke';
import { ledgerEntriesOf, reservedShards, storedBalanceCents } from '../support/ledger';
import { notifyHere } from '../support/provider';

/**
 * Issue 43: a payment the PSP holds with no ledger entry is found and recorded by the Pix sweep, which
 * reads the PSP's statement of Pix received (API Pix GET /pix) on from its cursor: a BolePix whose Pix
 * half was paid while its boleto payment was recorded (the rail's closing failed, so nothing read it
 * back), a Pix charge whose callback was lost after it left the sweep's index, and a Pix that paid no
 * charge at all. Run in this process against the standard-shaped test PSP.
 */

let environment: ApiPixEnvironment;
let auth: Record<string, string>;
let accountId: string;
let customer: number;

type Created = { reference: string; total: string; txid: string };

async function bolePix(): Promise<Created> {
  const reply = await invoke(createBoleto, routes.createBoleto, { headers: auth, body: { ...common(), customer } });
  expect(reply.status, reply.body).toBe(200);
  return (reply.json as { invoice: Created }).invoice;
}

async function pixCharge(): Promise<Created> {
  const reply = await invoke(createPix, routes.createPix, { headers: { ...auth, 'idempotency-key': `stmt-${randomUUID()}` }, body: { ...common(), customer } });
  expect(reply.status, reply.body).toBe(200);
  return (reply.json as { invoice: Created }).invoice;
}

/**
 * A sweep run as if APIPIX_SWEEP_AFTER_MINUTES (and `minutes` more) had passed since now: the statement
 * is read up to now + 1 + `minutes` minutes (a pass never reads a window twice: a later test's payments
 * are timed after the windows an earlier test's runs read).
 */
function sweepLater(minutes = 0) {
  const runtime = getRuntime();
  const later = new Date(Date.now() + ((runtime.config.apiPix?.sweepAfterMinutes ?? 30) + 1 + minutes) * 60_000);
  // As the PixSweep function: each call is evaluated against its synthesized role (its statement cursor's grants included).
  return runAsFunction(pixSweepWorker.id, () => pixSweep(pixSweepPorts(runtime, pixSweepWorker), later, 60_000));
}

const reservedShardsCents = async (account: string) => (await reservedShards(account)).reduce((sum, cents) => sum + cents, 0);

const pixPaymentEntries = async (reference: string) =>
  (await ledgerEntriesOf(accountId)).filter((entry) => typeof entry.description === 'string' && entry.description.includes(reference));

beforeAll(async () => {
  environment = await startApiPixEnvironment();
  ({ accountId, auth, customer } = await apiPixMerchant(environment));
  // Other files' sweeps share the table: this file's first pass starts from no cursor (the day before).
  const runtime = getRuntime();
  await runtime.db.send(new DeleteCommand({ TableName: runtime.config.tableName, Key: keys.pixStatement('apipix') }));
}, 60_000);

afterAll(async () => {
  await environment?.stop();
});

describe('the Pix sweep reads the PSP statement of Pix received', () => {
  it('records each payment the PSP holds with no ledger entry (once), and reports a Pix that paid no charge', async () => {
    const runtime = getRuntime();
    // 1. A BolePix paid on both rails: the Pix half at the PSP with no callback, the boleto recorded while the PSP failed the rail's closing.
    const both = await bolePix();
    const pixHalf = environment.psp.pay(both.txid);
    environment.psp.fail({ method: 'PATCH', path: /\/cobv\//, times: 1, mode: 'error500' });
    expect((await notifyHere('boleto-paid', { reference: both.reference })).json).toMatchObject({ applied: true });
    expect(await invoiceByTxid(runtime, both.txid)).toMatchObject({ status: 'PAID', paidRail: 'boleto' });
    expect(await invoiceByTxid(runtime, both.txid)).not.toHaveProperty('otherRailPayment');

    // 2. A Pix charge paid at the PSP, its callback lost, and out of the sweep's index (given up on).
    const quiet = await pixCharge();
    environment.psp.pay(quiet.txid);
    expect(await dynamoPixSweep(runtime.db, runtime.config.tableName).retire(quiet.reference)).toBe(true);

    // 3. A Pix to the key that paid no charge.
    environment.psp.receive({ valor: '12.34' });

    const before = await storedBalanceCents(accountId);
    const first = await sweepLater();
    expect(first.failed).toBe(0);
    expect(first.statement.recovered).toBe(2);
    expect(first.statement.unmatched).toBe(1);
    expect(first.statement.missing).toBe(0);

    // The BolePix's second payment held apart as a refund due (reserved, not available); the quiet charge paid; each once.
    expect(await invoiceByTxid(runtime, both.txid)).toMatchObject({
      status: 'PAID',
      paidRail: 'boleto',
      otherRailPayment: { rail: 'pix', amountCents: parseAmountToCents(pixHalf.valor) },
    });
    expect(await invoiceByTxid(runtime, quiet.txid)).toMatchObject({ status: 'PAID', paidRail: 'pix' });
    expect(await storedBalanceCents(accountId)).toBe(before + parseAmountToCents(quiet.total));
    expect(await reservedShardsCents(accountId)).toBe(parseAmountToCents(pixHalf.valor));
    expect(await pixPaymentEntries(both.reference)).toHaveLength(2);
    expect(await pixPaymentEntries(quiet.reference)).toHaveLength(1);

    // A second run reads on from the cursor: nothing read again, nothing recorded twice.
    const again = await sweepLater();
    expect(again.failed).toBe(0);
    expect(again.statement.recovered).toBe(0);
    expect(await storedBalanceCents(accountId)).toBe(before + parseAmountToCents(quiet.total));
    expect(await reservedShardsCents(accountId)).toBe(parseAmountToCents(pixHalf.valor));
    expect(await pixPaymentEntries(both.reference)).toHaveLength(2);
    expect(await pixPaymentEntries(quiet.reference)).toHaveLength(1);
  }, 90_000);

  it('a PSP failing the statement leaves the cursor where it was: the next run checks that page', async () => {
    const runtime = getRuntime();
    const quiet = await pixCharge();
    environment.psp.pay(quiet.txid, { horario: new Date(Date.now() + 3 * 60_000).toISOString() });
    expect(await dynamoPixSweep(runtime.db, runtime.config.tableName).retire(quiet.reference)).toBe(true);
    environment.psp.fail({ method: 'GET', path: /^\/v2\/pix$/, times: 1, mode: 'error500' });
    const failed = await sweepLater(5);
    expect(failed.failed).toBe(1);
    expect((await invoiceByTxid(runtime, quiet.txid))?.status).toBe('PENDING');
    const next = await sweepLater(5);
    expect(next.failed).toBe(0);
    expect(next.statement.recovered).toBe(1);
    expect((await invoiceByTxid(runtime, quiet.txid))?.status).toBe('PAID');
  }, 90_000);
});

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { GetQueueUrlCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { creditAccount } from '../../shared/adapters/dynamo/accounts';
import { parseAmountToCents } from '../../shared/domain/money';
import { keys } from '../../shared/adapters/dynamo/keys';
import { localAwsConfig } from '../../infra/local/aws';
import { accountStore, admin, bearer, call, newAccount, stack, tokenFor } from '../support/api';
import { availableBalance, eventsAbout, eventually } from '../support/ledger';
import { notification, notify } from '../support/provider';

type Withdraw = {
  reference: string;
  amount: string;
  fee: string;
  netAmount: string;
  endToEndId: string | null;
  status: string;
  loquidAmount: string;
  entoend: string | null;
  pixkey: string;
  keytype: string;
};

let auth: Record<string, string>;
let accountId: string;

async function fundedAccount(amount: string, feeCents = 0) {
  const keysOf = await newAccount(undefined, feeCents);
  await creditAccount(accountStore(), keysOf.account_id, parseAmountToCents(amount));
  accountId = keysOf.account_id;
  auth = bearer(await tokenFor(keysOf));
}

let counter = 0;
function idem(): string {
  counter += 1;
  return `wd-${Date.now()}-${counter}`;
}

async function withdraw(body: object, key: string | null = idem()) {
  return call('POST', '/api/pixout/create', { headers: { ...auth, ...(key ? { 'idempotency-key': key } : {}) }, body });
}

async function item(reference: string) {
  const store = accountStore();
  return (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.withdraw(reference), ConsistentRead: true }))).Item;
}

describe('POST /api/pixout/create', () => {
  beforeAll(async () => {
    await fundedAccount('100.00', 150);
  });

  it('reserves amount + fee at once and answers the withdraw with its current and legacy names', async () => {
    const reply = await withdraw({ amount: 30, pixkey: '52998224725', keytype: 'CPF', description: 'Fornecedor' });
    expect(reply.status).toBe(200);
    const body = reply.json as { success: boolean; message: string; withdraw: Withdraw };
    expect(body.success).toBe(true);
    expect(body.message).toEqual(expect.any(String));
    expect(body.withdraw).toMatchObject({
      amount: '30.00',
      fee: '1.50',
      netAmount: '30.00',
      loquidAmount: '30.00',
      endToEndId: null,
      entoend: null,
      status: 'PENDING',
      pixkey: '52998224725',
      keytype: 'CPF',
    });
    expect(await availableBalance(auth)).toBe('68.50');
  });

  it('requires a well-formed Idempotency-Key (422) and replays a retry without a second reservation', async () => {
    const body = { amount: 1, pixkey: 'a@example.com', keytype: 'EMAIL' };
    const missing = await withdraw(body, null);
    expect(missing.status).toBe(422);
    expect(missing.json).toEqual({ error: { 'Idempotency-Key': [expect.any(String)] } });
    expect((await withdraw(body, 'bad key!')).status).toBe(422);
    const before = await availableBalance(auth);
    const key = idem();
    const first = await withdraw(body, key);
    const again = await withdraw(body, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json).toEqual(first.json);
    expect(Number(before) - Number(await availableBalance(auth))).toBeCloseTo(2.5, 2);
    expect((await withdraw({ ...body, amount: 2 }, key)).json).toMatchObject({ code: 'idempotency_key_reused' });
  });

  it('checks each Pix key against its type, and the other fields (422)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ pixkey: '52998224726', keytype: 'CPF' }, 'pixkey'],
      [{ pixkey: '11.222.333/0001-81', keytype: 'CNPJ' }, 'pixkey'],
      [{ pixkey: 'not-an-email', keytype: 'EMAIL' }, 'pixkey'],
      [{ pixkey: '11999998888', keytype: 'PHONE' }, 'pixkey'],
      [{ pixkey: 'f3a1c2d4-0000-4000-8000-zzzzzzzzzzzz', keytype: 'EVP' }, 'pixkey'],
      [{ pixkey: 'a@example.com', keytype: 'BANK' }, 'keytype'],
      [{ amount: 0 }, 'amount'],
      [{ amount: 1.001 }, 'amount'],
      [{ description: 'x'.repeat(141) }, 'description'],
      [{ pixkey: 'x'.repeat(141), keytype: 'EVP' }, 'pixkey'],
      [{ document: '123' }, 'document'],
    ];
    for (const [override, field] of cases) {
      const reply = await withdraw({ amount: 1, pixkey: 'a@example.com', keytype: 'EMAIL', ...override });
      expect(reply.status, JSON.stringify(override)).toBe(422);
      expect(Object.keys((reply.json as { error: Record<string, unknown> }).error), JSON.stringify(override)).toContain(field);
    }
    for (const [pixkey, keytype] of [
      ['11222333000181', 'CNPJ'],
      ['+5511999998888', 'PHONE'],
      ['f3a1c2d4-0000-4000-8000-123456789abc', 'EVP'],
    ]) {
      expect((await withdraw({ amount: 0.01, pixkey, keytype })).status, keytype).toBe(200);
    }
  });

  it('answers 400 when the balance does not cover amount + fee, and changes nothing', async () => {
    const before = await availableBalance(auth);
    const reply = await withdraw({ amount: Number(before), pixkey: 'a@example.com', keytype: 'EMAIL' });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ error: expect.any(String), code: 'insufficient_balance' });
    expect(await availableBalance(auth)).toBe(before);
  });
});

describe('the bank and its outcomes', () => {
  beforeAll(async () => {
    await fundedAccount('100.00', 100);
  });

  it('asks the bank only after the commit, and again after a bank failure', async () => {
    const reply = await withdraw({ amount: 10, pixkey: 'bank-flaky@example.com', keytype: 'EMAIL' });
    const { reference } = (reply.json as { withdraw: Withdraw }).withdraw;
    const asked = await eventually(
      () => item(reference),
      (i) => typeof i?.bankRequestedAt === 'string',
    );
    expect(asked?.bankRequestedAt).toEqual(expect.any(String));
    expect(asked?.status).toBe('PENDING');
  });

  it('keeps the money reserved when the bank stays down; the message ends in the DLQ', async () => {
    const before = Number(await availableBalance(auth));
    const reply = await withdraw({ amount: 5, pixkey: 'bank-down@example.com', keytype: 'EMAIL' });
    const { reference } = (reply.json as { withdraw: Withdraw }).withdraw;
    const sqs = new SQSClient({ ...localAwsConfig(), endpoint: stack().sqsEndpoint });
    const dlq = (await sqs.send(new GetQueueUrlCommand({ QueueName: 'payouts-dlq' }))).QueueUrl;
    const inDlq = await eventually(
      async () => (await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlq, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }))).Messages ?? [],
      (messages) => messages.some((m) => m.Body?.includes(reference)),
      30_000,
    );
    expect(inDlq.some((m) => m.Body?.includes(reference))).toBe(true);
    expect((await item(reference))?.status).toBe('PENDING');
    expect(Number(await availableBalance(auth))).toBeCloseTo(before - 6, 2);
  }, 40_000);

  it('refused → CANCELED with amount + fee returned and pixout.canceled; a late paid changes nothing', async () => {
    const before = await availableBalance(auth);
    const { reference } = ((await withdraw({ amount: 20, pixkey: 'b@example.com', keytype: 'EMAIL' })).json as { withdraw: Withdraw }).withdraw;
    expect(Number(await availableBalance(auth))).toBeCloseTo(Number(before) - 21, 2);
    expect((await notify(notification('withdraw-refused', { reference }))).json).toEqual({ received: true, applied: true });
    expect(await availableBalance(auth)).toBe(before);
    expect((await notify(notification('withdraw-refused', { reference }))).json).toEqual({ received: true, applied: false });
    expect((await notify(notification('withdraw-paid', { reference }))).json).toEqual({ received: true, applied: false });
    const shown = (await call('GET', `/api/pixout/withdraw/${reference}`, { headers: auth })).json as { withdraw: Withdraw };
    expect(shown.withdraw.status).toBe('CANCELED');
    expect(await availableBalance(auth)).toBe(before);
    expect((await eventsAbout(accountId, reference)).map((e) => e.type)).toEqual(['pixout.canceled']);
  });

  it('concluded → PAID with a 32-character end-to-end id and pixout.paid (through the operator CLI)', async () => {
    const before = await availableBalance(auth);
    const { reference } = ((await withdraw({ amount: 7, pixkey: 'c@example.com', keytype: 'EMAIL' })).json as { withdraw: Withdraw }).withdraw;
    const sent = await admin('provider', 'withdraw', '--reference', reference, '--outcome', 'paid');
    expect(sent.json).toEqual({ status: 200, response: { received: true, applied: true } });
    const shown = ((await call('GET', `/api/pixout/withdraw/${reference}`, { headers: auth })).json as { withdraw: Withdraw }).withdraw;
    expect(shown.status).toBe('PAID');
    expect(shown.endToEndId).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(shown.entoend).toBe(shown.endToEndId);
    expect(Number(await availableBalance(auth))).toBeCloseTo(Number(before) - 8, 2);
    expect((await notify(notification('withdraw-refused', { reference }))).json).toEqual({ received: true, applied: false });
    expect(Number(await availableBalance(auth))).toBeCloseTo(Number(before) - 8, 2);
    expect((await eventsAbout(accountId, reference)).map((e) => e.type)).toEqual(['pixout.paid']);
    const bad = await admin('provider', 'withdraw', '--reference', reference, '--outcome', 'maybe');
    expect(bad.code).not.toBe(0);
  });
});

describe('withdraw queries', () => {
  let made: Withdraw[];
  beforeAll(async () => {
    await fundedAccount('1000.00');
    made = [];
    for (let i = 0; i < 27; i += 1)
      made.push(((await withdraw({ amount: 1, pixkey: `k${i}@example.com`, keytype: 'EMAIL' })).json as { withdraw: Withdraw }).withdraw);
    await notify(notification('withdraw-paid', { reference: made[0]?.reference ?? '' }));
  });

  it('gets one withdraw by reference; another account gets 404', async () => {
    const reference = made[3]?.reference ?? '';
    const reply = await call('GET', `/api/pixout/withdraw/${reference}`, { headers: auth });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ success: true, withdraw: { reference, amount: '1.00' } });
    const other = bearer(await tokenFor(await newAccount()));
    expect((await call('GET', `/api/pixout/withdraw/${reference}`, { headers: other })).status).toBe(404);
    expect((await call('GET', '/api/pixout/withdraw/WD-NOTAREALONE', { headers: auth })).status).toBe(404);
  });

  it('lists 25 per page, newest first, filtered by status and dates; a malformed filter → 400', async () => {
    const page = async (query: string) =>
      ((await call('GET', `/api/pixout/list?${query}`, { headers: auth })).json as { success: boolean; withdrawals: Withdraw[] }).withdrawals;
    const first = await page('');
    expect(first).toHaveLength(25);
    expect(first.map((w) => w.reference)).toEqual(
      [...made]
        .reverse()
        .slice(0, 25)
        .map((w) => w.reference),
    );
    expect((await page('page=2')).map((w) => w.reference)).toEqual([made[1]?.reference, made[0]?.reference]);
    expect((await page('status=PAID')).map((w) => w.reference)).toEqual([made[0]?.reference]);
    const today = new Date(Date.now() - 3 * 3600 * 1000).toISOString().slice(0, 10);
    expect(await page(`start=${today}&end=${today}`)).toHaveLength(25);
    expect(await page('start=2026-01-01&end=2026-01-02')).toEqual([]);
    for (const query of ['page=0', 'start=2026-13-01', 'end=yesterday', 'status=DONE', 'start=2026-03-02&end=2026-03-01']) {
      const reply = await call('GET', `/api/pixout/list?${query}`, { headers: auth });
      expect(reply.status, query).toBe(400);
      expect(reply.json).toMatchObject({ error: expect.any(String) });
    }
  });
});

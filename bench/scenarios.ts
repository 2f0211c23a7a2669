import { randomUUID } from 'node:crypto';
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { createAccount, type AccountStore, type IssuedKeys } from '../shared/adapters/dynamo/accounts';
import { PAYMENT_METHODS } from '../shared/domain/payment-methods';
import { signToken } from '../shared/domain/auth/token';
import { unixSeconds } from '../shared/ports/clock';
import type { Runtime } from '../shared/wiring/runtime';
import { handler as balanceHandler } from '../functions/account/balance';
import { handler as authHandler } from '../functions/auth/token';
import { handler as probeHandler, probeRoute } from '../test/support/probe-route';
import { routes } from '../shared/http/routes';
import { peerCreate, seedPeer, type PeerFixture } from './peer';
import { callRoute, expectStatus, type Reply, type RouteHandler } from './routes';

/** One measured operation: a route called through its real handler, a raw client call, or the peer. */
export type Scenario = {
  id: string;
  title: string;
  group: 'raw' | 'route' | 'peer';
  /** The scenario's request number (0 for its first, warm-up included) → one measured operation. */
  run: (iteration: number) => Promise<void>;
  /** Fewer requests than the run's (spread evenly over its rounds); absent: the run's iterations and warm-up. */
  budget?: { iterations: number; warmup: number };
};

/** An account with its payment methods enabled, and a Bearer token for it. */
export type Account = { keys: IssuedKeys; token: string };

/** Makes accounts straight in the store (pix, boleto and card enabled) with a token signed by the service's key. */
export async function accountFactory(runtime: Runtime): Promise<(name: string) => Promise<Account>> {
  const store: AccountStore = { db: runtime.db, table: runtime.config.tableName, now: () => new Date() };
  const signing = (await runtime.serviceKeys()).tokenSigning;
  return async (name) => {
    const keys = await createAccount(store, { name, methods: [...PAYMENT_METHODS], withdrawFeeCents: 0 });
    const issuedAt = unixSeconds(new Date());
    return { keys, token: signToken({ accountId: keys.account_id, keyVersion: 1, issuedAt, expiresAt: issuedAt + 3600 }, signing) };
  };
}

const balance: RouteHandler = balanceHandler;
const auth: RouteHandler = authHandler;
const probe: RouteHandler = probeHandler;

const PROBE_BODY = JSON.stringify({ name: 'bench item' });
export const WARM_IP = '198.51.100.10';

function basic(keys: IssuedKeys): string {
  return `Basic ${Buffer.from(`${keys.public_key}:${keys.secret_key}`).toString('base64')}`;
}

/** A distinct client address per call (100.64.0.0/10), so every call is its IP's first in the window. */
function freshIp(iteration: number): string {
  return `100.${64 + ((iteration >> 16) & 63)}.${(iteration >> 8) & 255}.${iteration & 255}`;
}

export function getBalance(account: Account, sourceIp = WARM_IP): Promise<Reply> {
  return callRoute({
    handler: balance,
    routeId: routes.balance.id,
    method: 'GET',
    path: routes.balance.path,
    headers: { authorization: `Bearer ${account.token}` },
    sourceIp,
  });
}

function createProbe(account: Account, idempotencyKey?: string): Promise<Reply> {
  return callRoute({
    handler: probe,
    routeId: probeRoute.id,
    method: 'POST',
    path: probeRoute.path,
    headers: { authorization: `Bearer ${account.token}`, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    body: PROBE_BODY,
    sourceIp: WARM_IP,
  });
}

function requestToken(keys: IssuedKeys, sourceIp: string): Promise<Reply> {
  return callRoute({
    handler: auth,
    routeId: routes.authToken.id,
    method: 'POST',
    path: routes.authToken.path,
    headers: { authorization: basic(keys) },
    sourceIp,
  });
}

export type Fixtures = {
  warmBalance: Account;
  freshBalance: Account[];
  probePlain: Account;
  probeIdempotent: Account;
  probeReplay: Account;
  replayKey: string;
  authKeys: IssuedKeys;
  peer: PeerFixture;
};

/** Accounts, tokens, a used Idempotency-Key and the peer's token: everything the scenarios need, made before measuring. */
export async function prepareFixtures(runtime: Runtime, freshAccounts: number, progress: (line: string) => void): Promise<Fixtures> {
  const { db, config } = runtime;
  const newAccount = await accountFactory(runtime);

  // The warm balance account gets its token from the real POST /api/auth handler.
  const warmKeys = (await newAccount('Bench balance')).keys;
  const tokenReply = expectStatus('token for the balance account', await requestToken(warmKeys, WARM_IP), 200);
  const warmBalance = { keys: warmKeys, token: (JSON.parse(tokenReply.body) as { success: { token: string } }).success.token };

  progress(`creating ${freshAccounts} accounts for the first-call-in-a-window scenario`);
  const freshBalance: Account[] = [];
  for (let i = 0; i < freshAccounts; i += 1) freshBalance.push(await newAccount(`Bench fresh ${i}`));

  const probeReplay = await newAccount('Bench replay');
  const replayKey = `bench-replay-${randomUUID()}`;
  expectStatus('first use of the replayed key', await createProbe(probeReplay, replayKey), 200);

  return {
    warmBalance,
    freshBalance,
    probePlain: await newAccount('Bench probe'),
    probeIdempotent: await newAccount('Bench probe idempotent'),
    probeReplay,
    replayKey,
    authKeys: (await newAccount('Bench auth')).keys,
    peer: await seedPeer(db, config.tableName),
  };
}

/** The scenarios, in the order they are reported. The first is the baseline every latency is divided by. */
export function scenarios(runtime: Runtime, fx: Fixtures): Scenario[] {
  const { db, config } = runtime;
  const table = config.tableName;
  const rawItem = (id: string, createdAt: string) => ({ PK: `BENCH#raw`, SK: `ITEM#${id}`, type: 'probe', name: 'bench item', createdAt });
  return [
    {
      id: 'raw-transaction',
      title: 'raw TransactWriteItems, 2 Puts (baseline)',
      group: 'raw',
      run: async () => {
        const id = randomUUID();
        const createdAt = new Date().toISOString();
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: table, Item: rawItem(id, createdAt), ConditionExpression: 'attribute_not_exists(PK)' } },
              {
                Put: {
                  TableName: table,
                  Item: { PK: 'BENCH#raw', SK: `LEDGER#${createdAt}#${id}`, type: 'ledger', itemId: id, amountCents: 1000, createdAt },
                  ConditionExpression: 'attribute_not_exists(PK)',
                },
              },
            ],
          }),
        );
      },
    },
    {
      id: 'raw-put',
      title: 'raw PutItem',
      group: 'raw',
      run: async () => {
        await db.send(
          new PutCommand({ TableName: table, Item: rawItem(randomUUID(), new Date().toISOString()), ConditionExpression: 'attribute_not_exists(PK)' }),
        );
      },
    },
    {
      id: 'balance',
      title: 'GET /api/balance',
      group: 'route',
      run: async () => void expectStatus('balance', await getBalance(fx.warmBalance), 200),
    },
    {
      id: 'balance-first-in-window',
      title: "GET /api/balance, account's first call in the minute",
      group: 'route',
      run: async (i) => {
        const account = fx.freshBalance[i];
        if (!account) throw new Error(`balance-first-in-window: no fresh account for iteration ${i}`);
        expectStatus('balance-first-in-window', await getBalance(account), 200);
      },
    },
    {
      id: 'create',
      title: 'POST probe creation, no Idempotency-Key',
      group: 'route',
      run: async () => void expectStatus('create', await createProbe(fx.probePlain), 200),
    },
    {
      id: 'create-idempotent',
      title: 'POST probe creation, fresh Idempotency-Key',
      group: 'route',
      run: async () => {
        const reply = expectStatus('create-idempotent', await createProbe(fx.probeIdempotent, `bench-${randomUUID()}`), 200);
        if (reply.headers['idempotent-replayed']) throw new Error('create-idempotent: a fresh key was answered as a replay');
      },
    },
    {
      id: 'create-replay',
      title: 'POST probe creation, replay of a used key',
      group: 'route',
      run: async () => {
        const reply = expectStatus('create-replay', await createProbe(fx.probeReplay, fx.replayKey), 200);
        if (reply.headers['idempotent-replayed'] !== 'true') throw new Error('create-replay: the answer was not a replay');
      },
    },
    {
      id: 'auth',
      title: 'POST /api/auth',
      group: 'route',
      run: async () => void expectStatus('auth', await requestToken(fx.authKeys, WARM_IP), 200),
    },
    {
      id: 'auth-first-in-window',
      title: "POST /api/auth, IP's first call in the minute",
      group: 'route',
      run: async (i) => void expectStatus('auth-first-in-window', await requestToken(fx.authKeys, freshIp(i)), 200),
    },
    {
      id: 'peer-create',
      title: 'peer: idempotent creation, the usual way (5 calls)',
      group: 'peer',
      run: async () => peerCreate(db, fx.peer, 'bench item'),
    },
  ];
}

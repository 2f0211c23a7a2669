import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Account } from '../../domain/account';
import { PAYMENT_METHODS, type PaymentMethod } from '../../domain/payment-methods';
import type { GateStore } from '../../ports/gate';
import type { RetryBudget } from './contention';
import type { Db, Item } from './dynamo';
import { keys } from './keys';
import { hitAccountCounter, hitIpCounter } from './rate-counter';

/** An account item read back as the settings the API's write routes use (never its secrets' values). */
export function accountOf(item: Item): Account {
  const methods: unknown[] = Array.isArray(item.methods) ? item.methods : [];
  return {
    accountId: String(item.accountId),
    ...(typeof item.name === 'string' ? { name: item.name } : {}),
    methods: methods.filter((method): method is PaymentMethod => PAYMENT_METHODS.some((known) => known === method)),
    ...(typeof item.withdrawFeeCents === 'number' ? { withdrawFeeCents: item.withdrawFeeCents } : {}),
    ...(typeof item.webhookUrl === 'string' ? { webhookUrl: item.webhookUrl } : {}),
    webhookSecretConfigured: typeof item.webhookSecretSealed === 'string',
  };
}

/** The gate's counters over the table, within one request's retry budget. */
export function dynamoGate(db: Db, table: string, budget?: RetryBudget): GateStore {
  return {
    async countAccountCall(hit) {
      const { item, quota } = await hitAccountCounter(
        db,
        { table, accountId: hit.accountId, keyVersion: hit.keyVersion, limit: hit.limit, nowMs: hit.nowMs, returnItem: hit.withAccount },
        budget,
      );
      return { account: item ? accountOf(item) : undefined, quota };
    },
    countIpCall: (hit) => hitIpCounter(db, { table, ...hit }, budget),
    async keyState(accountId) {
      const out = await db.send(new GetCommand({ TableName: table, Key: keys.account(accountId), ConsistentRead: true, ProjectionExpression: 'kv, disabled' }));
      return out.Item ? { keyVersion: Number(out.Item.kv), disabled: out.Item.disabled === true } : undefined;
    },
  };
}

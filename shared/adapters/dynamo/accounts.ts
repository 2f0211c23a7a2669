import type { AuditEntry } from '../../domain/panel/audit';
import { auditItem } from './panel-people';
import type { AccountKeys } from '../../ports/api-keys';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashSecretKey } from '../../domain/auth/secret-hash';
import { newAccountId, newPublicKey, newSecretKey, randomString } from '../../platform/ids';
import { readBalance, sumOf } from './ledger-balance';
import { adjustment } from '../../domain/ledger';
import { transferWrites } from './ledger';
import { AccountNotFoundError, CheckoutSigningConflictError } from '../../domain/errors';
import { BALANCE_SHARDS } from '../../domain/ledger-shards';
import { formatCents } from '../../domain/money';
import { type Db, isConditionalCheckFailed, itemFromConditionFailure } from './dynamo';
import { keys } from './keys';
import { commitWrites, type TxWrite } from './transact';
import type { ChangeCompilers } from './changes';
import type { CheckoutSigningSet } from '../../domain/changes';
import { accountIndexEntry } from './account-index';
import { callbackOriginsOf } from '../../domain/callback-origins';
import { checkoutSigningOf, nextCheckoutSigning } from '../../domain/checkout-signing';
import type { PaymentMethod } from '../../domain/payment-methods';
import { withdrawFeeCentsOf, withdrawFeeProblem } from '../../domain/withdrawal-fee';

/** Operator-side account management: the merchant panel's stand-in, used by the admin CLI and the demo. */
export type AccountStore = { db: Db; table: string; now: () => Date };

export type IssuedKeys = { account_id: string; public_key: string; secret_key: string };

export { AccountNotFoundError };

/** The account's checkout signing changed between our read and our write (another operator): nothing was issued. */
export { CheckoutSigningConflictError };

function keyItems(store: AccountStore, accountId: string, keyVersion: number) {
  const publicKey = newPublicKey();
  const secretKey = newSecretKey();
  const put = {
    Put: {
      TableName: store.table,
      Item: { ...keys.publicKey(publicKey), type: 'publicKey', accountId, kv: keyVersion, secretHash: hashSecretKey(secretKey) },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
  return { publicKey, secretKey, put };
}

export async function createAccount(store: AccountStore, input: { name: string; methods: PaymentMethod[]; withdrawFeeCents: number }): Promise<IssuedKeys> {
  const feeProblem = withdrawFeeProblem(input.withdrawFeeCents);
  if (feeProblem) throw new Error(feeProblem);
  const accountId = newAccountId();
  const issued = keyItems(store, accountId, 1);
  const createdAt = store.now().toISOString();
  await commitWrites(store.db, [
    {
      Put: {
        TableName: store.table,
        Item: {
          ...keys.account(accountId),
          type: 'account',
          accountId,
          name: input.name,
          methods: input.methods,
          withdrawFeeCents: input.withdrawFeeCents,
          balanceShards: BALANCE_SHARDS,
          kv: 1,
          publicKey: issued.publicKey,
          createdAt,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    // Its entry in the index of accounts the daily reconciliation pages through (./account-index.ts).
    { Put: { TableName: store.table, Item: accountIndexEntry(accountId), ConditionExpression: 'attribute_not_exists(PK)' } },
    // The balance: BALANCE_SHARDS shard items at 0, each under its own partition key (shared/domain/ledger-shards.ts).
    ...Array.from({ length: BALANCE_SHARDS }, (_, shard) => ({
      Put: {
        TableName: store.table,
        Item: { ...keys.balanceShard(accountId, shard), type: 'balance', accountId, shard, availableCents: 0 },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    })),
    issued.put,
  ]);
  return { account_id: accountId, public_key: issued.publicKey, secret_key: issued.secretKey };
}

async function readAccount(store: AccountStore, accountId: string) {
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: keys.account(accountId), ConsistentRead: true }));
  if (!out.Item) throw new AccountNotFoundError(accountId);
  return out.Item;
}

/**
 * New keys; the old public key is deleted and the key version moves on in the same transaction, so
 * the old keys and every token issued from them stop working at once.
 */
export async function rotateKeys(store: AccountStore, accountId: string, audit?: AuditEntry): Promise<IssuedKeys> {
  const account = await readAccount(store, accountId);
  const oldVersion = Number(account.kv);
  const issued = keyItems(store, accountId, oldVersion + 1);
  const oldKey = typeof account.publicKey === 'string' ? [{ Delete: { TableName: store.table, Key: keys.publicKey(account.publicKey) } }] : [];
  await commitWrites(store.db, [
    {
      Update: {
        TableName: store.table,
        Key: keys.account(accountId),
        UpdateExpression: 'SET kv = :next, publicKey = :pub',
        ConditionExpression: 'kv = :old',
        ExpressionAttributeValues: { ':next': oldVersion + 1, ':old': oldVersion, ':pub': issued.publicKey },
      },
    },
    ...oldKey,
    issued.put,
    ...(audit ? [{ Put: { TableName: store.table, Item: auditItem(audit), ConditionExpression: 'attribute_not_exists(PK)' } }] : []),
  ]);
  return { account_id: accountId, public_key: issued.publicKey, secret_key: issued.secretKey };
}

export async function setMethods(store: AccountStore, accountId: string, methods: PaymentMethod[]): Promise<void> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.account(accountId),
        UpdateExpression: 'SET methods = :m',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':m': methods },
      }),
    );
  } catch (err) {
    if (isConditionalCheckFailed(err)) throw new AccountNotFoundError(accountId);
    throw err;
  }
}

export type CheckoutSigningChange = {
  required: boolean;
  /** The current secret version after the change (0: none was ever issued). */
  version: number;
  /** This call issued `version` (first `require`, or `rotate`): the only moment its secret may be shown. */
  issued: boolean;
};

/**
 * The write of a checkout signing change: the settings on the account item, conditional on the account
 * and, when a version is issued, on the version read (two changes never issue the same version; the
 * loser gets CheckoutSigningConflictError). The secret itself is never stored
 * (shared/domain/checkout-signing.ts derives it).
 */
export function checkoutSigningWrite(table: string, change: CheckoutSigningSet): TxWrite {
  const versionUnchanged = change.previousVersion === 0 ? 'attribute_not_exists(checkoutSigningVersion)' : 'checkoutSigningVersion = :old';
  return {
    Update: {
      TableName: table,
      Key: keys.account(change.accountId),
      UpdateExpression: change.issued ? 'SET checkoutSigningRequired = :req, checkoutSigningVersion = :next' : 'SET checkoutSigningRequired = :req',
      ConditionExpression: change.issued ? `attribute_exists(PK) AND ${versionUnchanged}` : 'attribute_exists(PK)',
      ExpressionAttributeValues: {
        ':req': change.required,
        ...(change.issued ? { ':next': change.version } : {}),
        ...(change.issued && change.previousVersion > 0 ? { ':old': change.previousVersion } : {}),
      },
    },
    onConditionFailed: () => new CheckoutSigningConflictError(change.accountId),
  };
}

/** The accounts room's changes. */
export const accountCompilers: ChangeCompilers = {
  'checkout_signing.set': (context, change) => [checkoutSigningWrite(context.table, change)],
};

/**
 * Requires (or stops requiring) signed checkout forms (the operator's `account checkout-signing`): the
 * settings read, the rule applied (nextCheckoutSigning), the change written alone. An unknown account
 * is AccountNotFoundError; a version issued meanwhile, CheckoutSigningConflictError.
 */
export async function setCheckoutSigning(
  store: AccountStore,
  accountId: string,
  change: { require: boolean; rotate?: boolean },
): Promise<CheckoutSigningChange> {
  const next = { kind: 'checkout_signing.set' as const, accountId, ...nextCheckoutSigning(checkoutSigningOf(await readAccount(store, accountId)), change) };
  const { Update } = checkoutSigningWrite(store.table, next);
  try {
    await store.db.send(new UpdateCommand({ ...(Update as NonNullable<typeof Update>), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }));
  } catch (err) {
    if (!isConditionalCheckFailed(err)) throw err;
    if (!itemFromConditionFailure(err)) throw new AccountNotFoundError(accountId);
    throw new CheckoutSigningConflictError(accountId);
  }
  return { required: next.required, version: next.version, issued: next.issued };
}

/** Sets the callback origins the account's hosted checkouts may return to (an empty list: any https callback). */
export async function setCallbackOrigins(store: AccountStore, accountId: string, origins: readonly string[]): Promise<void> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.account(accountId),
        UpdateExpression: origins.length > 0 ? 'SET callbackOrigins = :o' : 'REMOVE callbackOrigins',
        ConditionExpression: 'attribute_exists(PK)',
        ...(origins.length > 0 ? { ExpressionAttributeValues: { ':o': [...origins] } } : {}),
      }),
    );
  } catch (err) {
    if (isConditionalCheckFailed(err)) throw new AccountNotFoundError(accountId);
    throw err;
  }
}

/** Disables (or enables again) an account: a disabled account's checkout forms are refused. */
export async function setAccountDisabled(store: AccountStore, accountId: string, disabled: boolean): Promise<void> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.account(accountId),
        UpdateExpression: 'SET disabled = :d',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':d': disabled },
      }),
    );
  } catch (err) {
    if (isConditionalCheckFailed(err)) throw new AccountNotFoundError(accountId);
    throw err;
  }
}

/** An operator balance adjustment (the merchant panel's stand-in): the balance change and its ledger entry in one transaction. */
export async function creditAccount(store: AccountStore, accountId: string, amountCents: number, reason = 'Operator adjustment') {
  const at = store.now().toISOString();
  const reference = `adj_${randomString(24)}`;
  const writes = transferWrites(store.table, adjustment({ accountId, reference, description: reason, at }, amountCents));
  await commitWrites(store.db, writes);
  const entryId = String(writes.find((write) => write.Put)?.Put?.Item?.entryId);
  return { account_id: accountId, entry_id: entryId, reference, amount: formatCents(amountCents), created_at: at };
}

/** What on-call may see of an account: never a secret (the public key is not one). */
export async function showAccount(store: AccountStore, accountId: string) {
  const account = await readAccount(store, accountId);
  const balance = await readBalance(store.db, store.table, accountId);
  const signing = checkoutSigningOf(account);
  return {
    account_id: accountId,
    name: account.name,
    methods: account.methods,
    withdraw_fee: formatCents(withdrawFeeCentsOf(account)),
    balance: formatCents(sumOf(balance.shards)),
    reserved: formatCents(sumOf(balance.reserved)),
    public_key: account.publicKey ?? null,
    key_version: account.kv,
    webhook_url: account.webhookUrl ?? null,
    disabled: account.disabled === true,
    checkout_signing_required: signing.required,
    checkout_signing_version: signing.version,
    callback_origins: callbackOriginsOf(account),
    created_at: account.createdAt,
  };
}

/** An account's keys through the AccountKeys port (the operator CLI and the panel's API keys page). */
export function dynamoAccountKeys(store: AccountStore): AccountKeys {
  return {
    async publicKey(accountId) {
      const out = await store.db.send(
        new GetCommand({ TableName: store.table, Key: keys.account(accountId), ConsistentRead: true, ProjectionExpression: 'publicKey' }),
      );
      return typeof out.Item?.publicKey === 'string' ? out.Item.publicKey : undefined;
    },
    async rotate(accountId, alsoPut) {
      const issued = await rotateKeys(store, accountId, alsoPut);
      return { publicKey: issued.public_key, secretKey: issued.secret_key };
    },
  };
}

import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Checkout, UnknownCardAttempt } from '../../domain/checkout';
import type { CheckoutStatus, OrderStatus } from '../../domain/checkout-transitions';
import { definedOnly } from '../../domain/defined';
import type { CheckoutMethod, CheckoutPaymentType } from '../../domain/payment-methods';
import type { CheckoutStore } from '../../ports/checkouts';
import type { Db, Item, TableAccess } from './dynamo';
import { keys } from './keys';

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const count = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** A checkout item read back as the record. */
export function checkoutOf(item: Item): Checkout {
  const optional = {
    productReference: text(item.productReference),
    productName: text(item.productName),
    pixReference: text(item.pixReference),
    cardDeclines: count(item.cardDeclines),
    unknownAttempt: typeof item.unknownAttempt === 'object' && item.unknownAttempt !== null ? (item.unknownAttempt as UnknownCardAttempt) : undefined,
    // Written by this service only: read back as written.
    paymentType: text(item.paymentType) as CheckoutPaymentType | undefined,
    invoiceReference: text(item.invoiceReference),
    paidAt: text(item.paidAt),
    abandonedAt: text(item.abandonedAt),
    orderStatus: text(item.orderStatus) as OrderStatus | undefined,
    orderVersion: count(item.orderVersion),
  };
  return {
    reference: String(item.reference),
    accountId: String(item.accountId),
    txRef: String(item.txRef),
    merchantName: String(item.merchantName),
    title: String(item.title),
    quantity: Number(item.quantity),
    amountCents: Number(item.amountCents),
    totalCents: Number(item.totalCents),
    email: String(item.email),
    firstName: String(item.firstName),
    lastName: String(item.lastName),
    callbackUrl: String(item.callbackUrl),
    methods: (Array.isArray(item.methods) ? item.methods : []) as CheckoutMethod[],
    createdAt: String(item.createdAt),
    status: item.status as CheckoutStatus,
    cardAttempt: Number(item.cardAttempt ?? 0),
    ...definedOnly(optional),
  };
}

/** One checkout by its reference, strongly consistent, or undefined (a function of its own: a bundle that reads one checkout takes no more). */
async function readCheckout(db: Db, table: string, reference: string): Promise<Checkout | undefined> {
  const out = await db.send(new GetCommand({ TableName: table, Key: keys.checkout(reference), ConsistentRead: true }));
  return out.Item ? checkoutOf(out.Item) : undefined;
}

/** The checkouts of the table. */
export function dynamoCheckouts(db: Db, table: string): CheckoutStore {
  const get = (reference: string) => readCheckout(db, table, reference);
  return {
    get,
    async ofReservation(accountId, txRef, reservation) {
      const key = reservation.kind === 'tx_ref' ? keys.checkoutTxRef(accountId, txRef) : keys.checkoutSale(accountId, txRef, reservation.sale);
      const out = await db.send(
        new GetCommand({ TableName: table, Key: key, ConsistentRead: true, ProjectionExpression: '#r', ExpressionAttributeNames: { '#r': 'reference' } }),
      );
      const reference = out.Item?.reference;
      const checkout = typeof reference === 'string' ? await get(reference) : undefined;
      return checkout?.accountId === accountId ? checkout : undefined;
    },
  };
}

/** A checkout by its reference, strongly consistent; undefined when there is none. */
export function checkoutByReference(access: TableAccess, reference: string): Promise<Checkout | undefined> {
  return readCheckout(access.db, access.config.tableName, reference);
}

/** The checkout of a merchant's tx_ref in its account (through the tx_ref's reservation: signed forms), or undefined. */
export function checkoutByTxRef(access: TableAccess, accountId: string, txRef: string): Promise<Checkout | undefined> {
  return checkoutOfReservation(access, accountId, keys.checkoutTxRef(accountId, txRef));
}

/** The checkout a reservation item (a tx_ref's, or one sale's under it) points to, in the account; undefined when none. */
export async function checkoutOfReservation(access: TableAccess, accountId: string, key: { PK: string; SK: string }): Promise<Checkout | undefined> {
  const out = await access.db.send(
    new GetCommand({
      TableName: access.config.tableName,
      Key: key,
      ConsistentRead: true,
      ProjectionExpression: '#r',
      ExpressionAttributeNames: { '#r': 'reference' },
    }),
  );
  const reference = out.Item?.reference;
  if (typeof reference !== 'string') return undefined;
  const checkout = await checkoutByReference(access, reference);
  return checkout?.accountId === accountId ? checkout : undefined;
}

/** At most this many checkouts are read for one tx_ref (a stranger may post many sales under one). */
export const MAX_CHECKOUTS_PER_TX_REF = 20;

/**
 * Every checkout of a tx_ref in the account (its reservation, and each sale's under it on an account
 * without signed forms), newest first, at most MAX_CHECKOUTS_PER_TX_REF.
 */
export async function checkoutsOfTxRef(access: TableAccess, accountId: string, txRef: string): Promise<Checkout[]> {
  const out = await access.db.send(
    new QueryCommand({
      TableName: access.config.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.checkoutTxRef(accountId, txRef).PK },
      ProjectionExpression: '#r',
      ExpressionAttributeNames: { '#r': 'reference' },
      ConsistentRead: true,
      Limit: MAX_CHECKOUTS_PER_TX_REF,
    }),
  );
  const references = (out.Items ?? []).map((item) => item.reference).filter((reference): reference is string => typeof reference === 'string');
  const checkouts = await Promise.all(references.map((reference) => checkoutByReference(access, reference)));
  return checkouts.filter((checkout): checkout is Checkout => checkout?.accountId === accountId).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { settingOfCharge } from '../domain/payment-methods';
import type { Caller } from '../auth/gate';
import { type ChargeAmounts, totalCents } from '../domain/charge-total';
import { BadRequestError, IdClashError, TemporaryConflictError, UnprocessableError, UpstreamError, ValidationError } from '../errors';
import { RAIL_LIMIT_CENTS } from '../domain/rail-limits';
import { logger } from '../logger';
import { ProviderError, ProviderRejectedError, withProviderTimeout } from '../providers/port';
import { paymentProvider } from '../providers/registry';
import type { Runtime } from '../runtime';
import { brazilDate } from '../dates';
import { centsFromNumber, formatCents } from '../domain/money';
import type { Item } from '../adapters/dynamo/dynamo';
import { keys } from '../adapters/dynamo/keys';
import type { TxWrite } from '../adapters/dynamo/transact';
import { type InvoiceIds, type InvoiceMethod, invoiceIdDraw } from './record';

export { RAIL_LIMIT_CENTS } from '../domain/rail-limits';

/** 400 when the account has not enabled the method (spec 1). */
export function assertMethodEnabled(caller: Caller, method: InvoiceMethod): void {
  const methods = caller.account?.methods;
  if (!Array.isArray(methods) || !methods.includes(settingOfCharge(method))) {
    throw new BadRequestError(`The payment method ${method} is not enabled for this account`, 'method_not_enabled');
  }
}

/** The charge total in cents, checked against the rail: beyond it → 422 on amount; zero → 422 on discount. */
export function checkedTotalCents(amounts: ChargeAmounts, method: InvoiceMethod): number {
  const total = totalCents(amounts);
  const limit = RAIL_LIMIT_CENTS[method];
  if (total > BigInt(limit)) throw new ValidationError({ amount: [`The total exceeds what ${method} can carry (at most ${formatCents(limit)})`] });
  if (total < 1n) throw new ValidationError({ discount: ['The total must be at least 0.01'] });
  return Number(total);
}

/** The account's display name, for BR Codes and boleto pages. */
export function merchantName(caller: Caller): string {
  return typeof caller.account?.name === 'string' ? caller.account.name : 'Merchant';
}

/**
 * An id checked unused before the provider was called, taken by another request before the commit: a
 * race. Deliberately NOT an IdClashError, so the pipeline never runs the implementation again (that
 * would register a second charge at the provider): 503, nothing recorded, the Idempotency-Key freed;
 * the client's retry draws new ids.
 */
const takenMeanwhile = () =>
  new TemporaryConflictError(
    'An invoice id drawn for this request was taken by another request meanwhile; nothing was recorded. Retry with the same Idempotency-Key.',
  );

/**
 * The writes of a new invoice: the invoice (its key reserves the reference; a Pix txid carries the
 * reference, so it is unique too) and the numeric id's reservation, each conditional, so an id is
 * never given twice. Their ids were checked unused (unusedInvoiceIds) before the provider was called;
 * a clash here is never retried in place (see takenMeanwhile).
 */
export function invoiceCreationWrites(table: string, item: Item): TxWrite[] {
  const reference = String(item.reference);
  const accountId = String(item.accountId);
  const pointer = { type: 'invoicePointer', reference, accountId };
  return [
    { Put: { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(PK)' }, onConditionFailed: takenMeanwhile },
    {
      Put: { TableName: table, Item: { ...keys.invoiceIdReservation(Number(item.invoiceId)), ...pointer }, ConditionExpression: 'attribute_not_exists(PK)' },
      onConditionFailed: takenMeanwhile,
    },
  ];
}

/** Pix and boleto charges cannot fall due before today (Brazil's date): 422 on due_date. */
export function assertDueDateNotPast(dueDate: string, now: Date): void {
  if (dueDate < brazilDate(now)) throw new ValidationError({ due_date: ['Must be today or later'] });
}

export type ChargeBody = ChargeAmounts & { invoice_no: string; item_name: string; due_date: string; notes?: string };

/** The fields every new invoice shares, from the request's common charge fields. */
export function baseInvoice(caller: Caller, body: ChargeBody, ids: { invoiceId: number; reference: string }, totalCentsValue: number, now: Date) {
  return {
    accountId: caller.accountId,
    invoiceId: ids.invoiceId,
    reference: ids.reference,
    merchantName: merchantName(caller),
    invoiceNo: body.invoice_no,
    itemName: body.item_name,
    quantity: body.quantity,
    amountCents: centsFromNumber(body.amount),
    tax: body.tax,
    discount: body.discount,
    totalCents: totalCentsValue,
    dueDate: body.due_date,
    notes: body.notes,
    createdAt: now.toISOString(),
  };
}

/**
 * One call to the payment provider within PROVIDER_TIMEOUT_MS: a provider failure or a timeout becomes
 * 502 `upstream_error` with `failure` as its message; a refusal of the request's content (a PSP's
 * 4xx) becomes 400 or 422 `provider_rejected` with the PSP's message. Either way nothing is recorded
 * and the key is freed.
 */
export async function callProvider<T>(call: Promise<T>, timeoutMs: number, failure: string): Promise<T> {
  try {
    return await withProviderTimeout(call, timeoutMs);
  } catch (err) {
    if (err instanceof ProviderError) throw new UpstreamError('upstream_failed', failure);
    if (err instanceof ProviderRejectedError) {
      const message = `The payment provider refused the charge: ${err.message}`;
      throw err.status === 422 ? new UnprocessableError(message, PROVIDER_REJECTED) : new BadRequestError(message, PROVIDER_REJECTED);
    }
    throw err;
  }
}

/** The error code of a charge the payment provider refused for its content (its message is the PSP's). */
export const PROVIDER_REJECTED = 'provider_rejected';

/** How many times ids are drawn before giving up (each draw clashes with odds of about 1 in 10^9). */
const ID_DRAWS = 3;

async function taken(runtime: Runtime, key: { PK: string; SK: string }): Promise<boolean> {
  const found = await runtime.db.send(new GetCommand({ TableName: runtime.config.tableName, Key: key, ConsistentRead: true, ProjectionExpression: 'PK' }));
  return found.Item !== undefined;
}

/**
 * A reference and a numeric id neither in use yet (the invoice key and the INVID# reservation, read
 * strongly consistent), drawn BEFORE the provider is called: a drawn id that is taken is drawn again
 * here, where nothing outside has happened, so the provider is asked once per invoice. `proposed` is
 * tried first when given. After ID_DRAWS taken draws: IdClashError (nothing was asked of anyone).
 */
export async function unusedInvoiceIds(runtime: Runtime, now: Date, proposed?: InvoiceIds): Promise<InvoiceIds> {
  for (let draw = 0; draw < ID_DRAWS; draw += 1) {
    const ids = draw === 0 && proposed ? proposed : { invoiceId: invoiceIdDraw.numericId(now), reference: invoiceIdDraw.reference() };
    const [referenceTaken, idTaken] = await Promise.all([
      taken(runtime, keys.invoice(ids.reference)),
      taken(runtime, keys.invoiceIdReservation(ids.invoiceId)),
    ]);
    if (!referenceTaken && !idTaken) return ids;
  }
  throw new IdClashError();
}

/**
 * Voids an approved card authorization only when its invoice is not recorded (re-read: a commit's
 * outcome may have been unknown) and `recordedElsewhere` does not find it under another invoice (a
 * checkout's concurrent attempt sharing the provider's idempotency key may have recorded it).
 */
export async function voidUnlessRecorded(
  runtime: Runtime,
  reference: string,
  transactionId: string,
  recordedElsewhere: () => Promise<boolean> = async () => false,
  providerName: string = runtime.config.payments.cardAndBoletoProvider,
): Promise<void> {
  const found = await runtime.db.send(
    new GetCommand({ TableName: runtime.config.tableName, Key: keys.invoice(reference), ConsistentRead: true, ProjectionExpression: 'PK' }),
  );
  if (found.Item || (await recordedElsewhere())) {
    logger.warn('card authorization kept: it was recorded after all', { reference });
    return;
  }
  await withProviderTimeout(paymentProvider(runtime.config, providerName).voidCard({ reference, transactionId }), runtime.config.payments.timeoutMs);
}

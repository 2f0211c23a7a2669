import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { settingOfCharge } from '../domain/payment-methods';
import type { Caller } from '../domain/account';
import { type ChargeAmounts, totalCents } from '../domain/charge-total';
import { BadRequestError, ValidationError } from '../errors';
import { RAIL_LIMIT_CENTS } from '../domain/rail-limits';
import { logger } from '../logger';
import { withProviderTimeout } from '../providers/port';
import { paymentProvider } from '../providers/registry';
import type { Runtime } from '../runtime';
import { brazilDate } from '../dates';
import { centsFromNumber, formatCents } from '../domain/money';
import { keys } from '../adapters/dynamo/keys';
import { dynamoInvoiceIds, invoiceItemWrites } from '../adapters/dynamo/invoices';
import type { InvoiceIds, InvoiceMethod } from './record';

export { RAIL_LIMIT_CENTS } from '../domain/rail-limits';

/** 400 when the account has not enabled the method (spec 1). */
export function assertMethodEnabled(caller: Caller, method: InvoiceMethod): void {
  if (!caller.account?.methods.includes(settingOfCharge(method))) {
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
  return caller.account?.name ?? 'Merchant';
}

/** The writes of a new invoice item and its id's reservation (shared/adapters/dynamo/invoices.ts). */
export const invoiceCreationWrites = invoiceItemWrites;

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

export { callProvider, PROVIDER_REJECTED } from '../app/charges/call-provider';

/** A reference and a numeric id neither in use yet (shared/adapters/dynamo/invoices.ts: the port's DynamoDB side). */
export function unusedInvoiceIds(runtime: Runtime, now: Date, proposed?: InvoiceIds): Promise<InvoiceIds> {
  return dynamoInvoiceIds(runtime.db, runtime.config.tableName).unused(now, proposed);
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

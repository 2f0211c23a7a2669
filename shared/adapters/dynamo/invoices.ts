import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { InvoiceCreated } from '../../domain/changes';
import type { InvoiceIds } from '../../domain/invoice';
import { IdClashError, TemporaryConflictError } from '../../errors';
import { invoiceIdDraw, invoiceItem } from '../../invoices/record';
import type { InvoiceIdPort } from '../../ports/invoices';
import type { Db, Item } from './dynamo';
import { keys } from './keys';
import type { TxWrite } from './transact';
import type { ChangeCompilers } from './changes';

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
 * The writes of a new invoice item: the invoice (its key reserves the reference; a Pix txid carries the
 * reference, so it is unique too) and the numeric id's reservation, each conditional, so an id is never
 * given twice (see takenMeanwhile).
 */
export function invoiceItemWrites(table: string, item: Item): TxWrite[] {
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

/** A new invoice: its item (the payer's document sealed) and its id's reservation. */
export function invoiceCreatedWrites(table: string, change: InvoiceCreated, personalDataKey: Buffer): TxWrite[] {
  return invoiceItemWrites(table, invoiceItem(change.invoice, personalDataKey));
}

/** How many times ids are drawn before giving up (each draw clashes with odds of about 1 in 10^9). */
const ID_DRAWS = 3;

/** Invoice ids checked unused against the table (the invoice key and the INVID# reservation, strongly consistent). */
export function dynamoInvoiceIds(db: Db, table: string): InvoiceIdPort {
  const taken = async (key: { PK: string; SK: string }) =>
    (await db.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true, ProjectionExpression: 'PK' }))).Item !== undefined;
  return {
    async unused(now: Date, proposed?: InvoiceIds): Promise<InvoiceIds> {
      for (let draw = 0; draw < ID_DRAWS; draw += 1) {
        const ids = draw === 0 && proposed ? proposed : { invoiceId: invoiceIdDraw.numericId(now), reference: invoiceIdDraw.reference() };
        const [referenceTaken, idTaken] = await Promise.all([taken(keys.invoice(ids.reference)), taken(keys.invoiceIdReservation(ids.invoiceId))]);
        if (!referenceTaken && !idTaken) return ids;
      }
      throw new IdClashError();
    },
  };
}

/** The invoices' changes (so far: a new invoice). */
export const invoiceCompilers: ChangeCompilers = {
  'invoice.created': async (context, change) => invoiceCreatedWrites(context.table, change, (await context.keys()).personalData),
};

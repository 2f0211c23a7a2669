import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { InvoiceCreated, InvoiceMoved, InvoiceOtherRailPaid } from '../../domain/changes';
import { hasRailUpkeep } from '../../domain/bolepix';
import { nextVersion } from '../../domain/object-version';
import { RAIL_UPKEEP_INDEX, RAIL_UPKEEP_PREFIX, railUpkeepNow, railUpkeepPartitions } from './rail-upkeep-index';
import type { Invoice, InvoiceIds } from '../../domain/invoice';
import type { InvoiceStatus } from '../../domain/invoice-transitions';
import { PIX_SWEEP_INDEX, PIX_SWEEP_PREFIX, pixSweepPartitions } from './pix-sweep-index';
import { referenceOfTxid } from '../../domain/invoice-ids';
import { invoiceItem, invoiceListKeys, invoiceOf } from './invoice-item';
import type { InvoiceIdPort, InvoiceStore, PixSweepIndex, RailUpkeepIndex } from '../../ports/invoices';
import { MoveAlreadyMade } from './state-move';
import { IdClashError, InvoiceNotCancelableError, TemporaryConflictError } from '../../domain/errors';
import { invoiceIdDraw } from '../../platform/invoice-references';
import { type Db, isConditionalCheckFailed, type Item } from './dynamo';
import { keys } from './keys';
import { batchGetConsistent } from './batch-get';
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

/** A reference drawn, and the id that carries it. */
function drawnIds(): InvoiceIds {
  const reference = invoiceIdDraw.reference();
  return { reference, invoiceId: invoiceIdDraw.numericId(reference) };
}

/**
 * Invoice ids checked unused against the table: the invoice key and the INVID# reservation, read
 * together in one strongly consistent BatchGetItem. (A new id carries its reference, so it is unique
 * when the reference is; its reservation still keeps it apart from the time-ordered ids drawn before.)
 */
export function dynamoInvoiceIds(db: Db, table: string): InvoiceIdPort {
  return {
    async unused(_now: Date, proposed?: InvoiceIds): Promise<InvoiceIds> {
      for (let draw = 0; draw < ID_DRAWS; draw += 1) {
        const ids = draw === 0 && proposed ? proposed : drawnIds();
        const found = await batchGetConsistent(db, table, [keys.invoice(ids.reference), keys.invoiceIdReservation(ids.invoiceId)], 'PK, SK');
        if (found.every((item) => item === undefined)) return ids;
      }
      throw new IdClashError();
    },
  };
}

/** One invoice by reference, strongly consistent (the payer's document unsealed when a key is given), or undefined. */
export async function readInvoice(db: Db, table: string, reference: string, personalDataKey?: Buffer): Promise<Invoice | undefined> {
  const out = await db.send(new GetCommand({ TableName: table, Key: keys.invoice(reference), ConsistentRead: true }));
  return out.Item ? invoiceOf(out.Item, personalDataKey) : undefined;
}

/** The invoices of the table, read strongly consistent; with a personal-data key, the payers' documents unsealed (the query routes). */
export function dynamoInvoices(db: Db, table: string, personalDataKey?: () => Promise<Buffer>): InvoiceStore {
  const byReference = async (reference: string) => readInvoice(db, table, reference, personalDataKey ? await personalDataKey() : undefined);
  return {
    byReference,
    async byTxid(txid) {
      // The txid carries the reference: one read, checked against the stored txid.
      const reference = referenceOfTxid(txid);
      const invoice = reference ? await byReference(reference) : undefined;
      return invoice?.pix?.txid === txid ? invoice : undefined;
    },
  };
}

/** The invoice references of one partition of a sweep index (GSI2) due before `before` (its sort key starts with an ISO time), soonest first. */
async function referencesDue(db: Db, table: string, index: string, partition: string, before: string, limit: number): Promise<string[]> {
  const page = await db.send(
    new QueryCommand({
      TableName: table,
      IndexName: index,
      KeyConditionExpression: 'GSI2PK = :p AND GSI2SK < :before',
      ExpressionAttributeValues: { ':p': partition, ':before': before },
      Limit: limit,
    }),
  );
  return (page.Items ?? []).map((item) => String(item.reference));
}

/**
 * Takes an invoice out of a sweep index (GSI2 partitions starting with `prefix`), only while it still has
 * `status` and is still in that index: false when a move or another run came first (nothing written).
 */
async function leaveSweepIndex(db: Db, table: string, reference: string, status: InvoiceStatus, prefix: string): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: table,
        Key: keys.invoice(reference),
        UpdateExpression: 'REMOVE GSI2PK, GSI2SK',
        ConditionExpression: '#status = :status AND begins_with(GSI2PK, :prefix)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':prefix': prefix },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionalCheckFailed(err)) return false;
    throw err;
  }
}

/** The Pix sweep's index over the table (GSI2, PIXSWEEP# partitions). */
export function dynamoPixSweep(db: Db, table: string): PixSweepIndex {
  return {
    partitions: pixSweepPartitions,
    due: (partition, before, limit) => referencesDue(db, table, PIX_SWEEP_INDEX, partition, before, limit),
    retire: (reference) => leaveSweepIndex(db, table, reference, 'PENDING', PIX_SWEEP_PREFIX),
  };
}

/** The attribute each status's move stamps with its time. */
const MOVED_AT: Readonly<Record<Exclude<InvoiceStatus, 'PENDING'>, string>> = { PAID: 'paidAt', CANCELED: 'canceledAt', REFUNDED: 'refundedAt' };

function movedAtAttribute(to: InvoiceStatus): string {
  if (to === 'PENDING') throw new Error('No invoice move goes back to PENDING');
  return MOVED_AT[to];
}

/**
 * The status update of an invoice move, conditional on the from-status: a duplicate or concurrent
 * notification finds it made (MoveAlreadyMade). A payment confirmed for a canceled invoice also sets
 * paidAfterCancel, on condition that the invoice was never paid (no paidAt), so one invoice is
 * credited at most once. A charge waiting for a lookup leaves the Pix sweep's index with its first
 * move; an invoice taken out of the list (an abandoned checkout's Pix) is listed again by any move.
 * A payment records its amount and rail; a boleto kept by the rails upkeep (a BolePix) is due there at
 * once after a move to PAID or CANCELED, to close the rails left open. The version read is raised by
 * one (issue 29), on condition that it is still the one read.
 */
export function invoiceMovedWrite(table: string, change: InvoiceMoved): TxWrite {
  const { invoice, move, payment } = change;
  const read = invoice.version;
  const late = move.paidAfterCancel === true;
  const relist = invoice.unlisted === true ? invoiceListKeys(invoice.accountId, invoice.createdAt, invoice.invoiceId) : undefined;
  const rails = hasRailUpkeep(invoice) && (move.to === 'PAID' || move.to === 'CANCELED') ? railUpkeepNow(invoice.reference) : undefined;
  const event = change.eventId;
  const sets = [
    '#status = :to',
    '#at = :at',
    ...(late ? ['#flag = :flag'] : []),
    ...(relist ? ['GSI1PK = :lpk', 'GSI1SK = :lsk'] : []),
    ...(event ? ['#events = list_append(if_not_exists(#events, :none), :event)'] : []),
    ...(payment ? ['#paidAmount = :paidAmount', '#paidRail = :paidRail'] : []),
    ...(rails ? ['GSI2PK = :rpk', 'GSI2SK = :rsk'] : []),
    '#version = :version',
  ];
  const removes = [...(invoice.awaitsPixLookup === true && !rails ? ['GSI2PK', 'GSI2SK'] : []), ...(relist ? ['unlisted'] : [])];
  return {
    Update: {
      TableName: table,
      Key: keys.invoice(invoice.reference),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
      // The version read, too: a status left and come back to (CANCELED → PAID → CANCELED) is not the state read.
      ConditionExpression: `#status = :from AND ${read === undefined ? 'attribute_not_exists(#version)' : '#version = :read'}${late ? ' AND attribute_not_exists(#at)' : ''}`,
      ExpressionAttributeNames: {
        '#status': 'status',
        '#version': 'version',
        '#at': movedAtAttribute(move.to),
        ...(late ? { '#flag': 'paidAfterCancel' } : {}),
        ...(event ? { '#events': 'eventIds' } : {}),
        ...(payment ? { '#paidAmount': 'paidAmountCents', '#paidRail': 'paidRail' } : {}),
      },
      ExpressionAttributeValues: {
        ':to': move.to,
        ':from': move.from,
        ':at': change.at,
        ...(late ? { ':flag': true } : {}),
        ...(relist ? { ':lpk': relist.GSI1PK, ':lsk': relist.GSI1SK } : {}),
        ...(event ? { ':none': [], ':event': [event] } : {}),
        ...(payment ? { ':paidAmount': payment.amountCents, ':paidRail': payment.rail } : {}),
        ...(rails ? { ':rpk': rails.GSI2PK, ':rsk': rails.GSI2SK } : {}),
        ':version': nextVersion(read),
        ...(read === undefined ? {} : { ':read': read }),
      },
    },
    // A merchant's cancellation that lost its race is refused as a business rule; a notification's move found made is no error.
    onConditionFailed: () => (change.lostRace === 'not_cancelable' ? new InvoiceNotCancelableError('invoice_not_pending') : new MoveAlreadyMade()),
  };
}

/**
 * A BolePix's payment on its other rail, recorded once: only while the invoice still has the status
 * read, was paid by the other rail, and records no such payment (a duplicate finds it made).
 */
export function invoiceOtherRailPaidWrite(table: string, change: InvoiceOtherRailPaid): TxWrite {
  const { invoice } = change;
  return {
    Update: {
      TableName: table,
      Key: keys.invoice(invoice.reference),
      UpdateExpression: 'SET #other = :other',
      ConditionExpression: '#status = :status AND #paidRail = :paidRail AND attribute_not_exists(#other)',
      ExpressionAttributeNames: { '#other': 'otherRailPayment', '#status': 'status', '#paidRail': 'paidRail' },
      ExpressionAttributeValues: {
        ':other': { rail: change.rail, amountCents: change.amountCents, at: change.at },
        ':status': invoice.status,
        ':paidRail': invoice.paidRail ?? '',
      },
    },
    onConditionFailed: () => new MoveAlreadyMade(),
  };
}

/** The rails upkeep's index over the table (GSI2, RAILS# partitions). */
export function dynamoRailUpkeep(db: Db, table: string): RailUpkeepIndex {
  return {
    partitions: railUpkeepPartitions,
    due: (partition, before, limit) => referencesDue(db, table, RAIL_UPKEEP_INDEX, partition, before, limit),
    retire: (reference, status) => leaveSweepIndex(db, table, reference, status, RAIL_UPKEEP_PREFIX),
  };
}

/** A new invoice (the creations' own set: they move none). */
export const invoiceCreatedCompilers: ChangeCompilers = {
  'invoice.created': async (context, change) => invoiceCreatedWrites(context.table, change, (await context.keys()).personalData),
};

/** An invoice moved (the moves' own set: they create no invoice). */
export const invoiceMovedCompilers: ChangeCompilers = {
  'invoice.moved': (context, change) => [invoiceMovedWrite(context.table, change)],
  'invoice.other_rail_paid': (context, change) => [invoiceOtherRailPaidWrite(context.table, change)],
};

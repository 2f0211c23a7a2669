import { describe, expect, it } from 'vitest';
import { invoiceItem, invoiceOf } from '../../../../shared/adapters/dynamo/invoice-item';
import { invoiceMovedWrite } from '../../../../shared/adapters/dynamo/invoices';
import { MoveAlreadyMade } from '../../../../shared/adapters/dynamo/state-move';
import { InvoiceNotCancelableError } from '../../../../shared/domain/errors';
import type { Invoice, NewInvoice } from '../../../../shared/domain/invoice';
import { invoiceMove } from '../../../../shared/domain/invoice-transitions';
import { aNewInvoice } from '../../../support/records';

const KEY = Buffer.alloc(32, 3);
const at = '2026-11-27T12:59:00.000Z';

const created: NewInvoice = aNewInvoice({
  payer: { email: 'ana@example.com', name: 'Ana', document: '12345678909' },
  provider: 'apipix',
  awaitsPixLookup: true,
});

describe('an invoice item read back as the record', () => {
  it('carries what was written, the document staying sealed, and whether it waits in the Pix sweep', () => {
    const invoice = invoiceOf(invoiceItem(created, KEY));
    const { payer: _payer, ...rest } = created;
    // A new invoice is stored at version 1 (issue 29).
    expect(invoice).toEqual({ ...rest, payer: { email: 'ana@example.com', name: 'Ana' }, version: 1 });
    expect(JSON.stringify(invoice)).not.toContain('12345678909');
    const { awaitsPixLookup: _waits, ...plain } = created;
    expect(invoiceOf(invoiceItem(plain, KEY)).awaitsPixLookup).toBeUndefined();
  });
});

describe('the write of an invoice move', () => {
  const invoice = invoiceOf(invoiceItem(created, KEY));
  const paid = invoiceMove('PENDING', 'PAID');
  if (!paid) throw new Error('PENDING → PAID is in the table');

  it('is conditional on the from-status and the version read, raises the version, stamps the move, and takes a charge out of the Pix sweep; a failed condition is a move already made', () => {
    const write = invoiceMovedWrite('t', { kind: 'invoice.moved', invoice, move: paid, at });
    expect(write.Update?.Key).toEqual({ PK: 'INV#INV-AAAAAA', SK: 'INVOICE' });
    expect(write.Update?.UpdateExpression).toBe('SET #status = :to, #at = :at, #version = :version REMOVE GSI2PK, GSI2SK');
    expect(write.Update?.ConditionExpression).toBe('#status = :from AND #version = :read');
    expect(write.Update?.ExpressionAttributeNames).toEqual({ '#status': 'status', '#at': 'paidAt', '#version': 'version' });
    expect(write.Update?.ExpressionAttributeValues).toEqual({ ':to': 'PAID', ':from': 'PENDING', ':at': at, ':version': 2, ':read': 1 });
    expect(write.onConditionFailed?.()).toBeInstanceOf(MoveAlreadyMade);
    // An invoice stored before versions were kept counts as 1, on condition that it still has none.
    const older = invoiceMovedWrite('t', { kind: 'invoice.moved', invoice: { ...invoice, version: undefined }, move: paid, at });
    expect(older.Update?.ConditionExpression).toBe('#status = :from AND attribute_not_exists(#version)');
    expect(older.Update?.ExpressionAttributeValues).toMatchObject({ ':version': 2 });
    expect(older.Update?.ExpressionAttributeValues).not.toHaveProperty(':read');
  });

  it("a merchant's cancellation that finds its invoice moved meanwhile is refused as not PENDING (issue 46), not taken as made", () => {
    const cancel = invoiceMove('PENDING', 'CANCELED');
    if (!cancel) throw new Error('PENDING → CANCELED is in the table');
    const write = invoiceMovedWrite('t', { kind: 'invoice.moved', invoice, move: cancel, at, lostRace: 'not_cancelable' });
    expect(write.Update?.ConditionExpression).toBe('#status = :from AND #version = :read');
    expect(write.onConditionFailed?.()).toBeInstanceOf(InvoiceNotCancelableError);
    expect(write.onConditionFailed?.()).toMatchObject({ kind: 'invalid', code: 'invoice_not_pending' });
  });

  it('a payment after a cancellation is flagged, on condition that the invoice was never paid', () => {
    const late = invoiceMove('CANCELED', 'PAID');
    if (!late) throw new Error('CANCELED → PAID is in the table');
    const canceled: Invoice = { ...invoice, status: 'CANCELED', awaitsPixLookup: undefined };
    const write = invoiceMovedWrite('t', { kind: 'invoice.moved', invoice: canceled, move: late, at });
    expect(write.Update?.UpdateExpression).toBe('SET #status = :to, #at = :at, #flag = :flag, #version = :version');
    expect(write.Update?.ConditionExpression).toBe('#status = :from AND #version = :read AND attribute_not_exists(#at)');
    expect(write.Update?.ExpressionAttributeValues).toMatchObject({ ':flag': true, ':from': 'CANCELED' });
  });

  it('an unlisted invoice (an abandoned checkout’s Pix) is listed again by its move', () => {
    const unlisted: Invoice = { ...invoice, unlisted: true, awaitsPixLookup: undefined };
    const write = invoiceMovedWrite('t', { kind: 'invoice.moved', invoice: unlisted, move: paid, at });
    expect(write.Update?.UpdateExpression).toBe('SET #status = :to, #at = :at, GSI1PK = :lpk, GSI1SK = :lsk, #version = :version REMOVE unlisted');
    expect(write.Update?.ExpressionAttributeValues).toMatchObject({ ':lpk': invoiceItem(created, KEY).GSI1PK, ':lsk': invoiceItem(created, KEY).GSI1SK });
  });
});

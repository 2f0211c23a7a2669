/**
 * Reads of the rooms not yet behind a port (invoices, checkouts: issue 32), over the runtime's table:
 * the functions take them here, never from the adapter, so the day they get a port only this module moves.
 */
export { invoiceByNumericId, invoiceByReference, invoiceByTxid, listInvoices, ownInvoice } from '../adapters/dynamo/invoice-lookup';
export { checkoutsOfTxRef } from '../adapters/dynamo/checkout-lookup';

import type { Change } from '../../domain/changes';
import { type InvoiceBase, type InvoiceIds, type NewInvoice, pendingInvoice } from '../../domain/invoice';
import { txidForReference } from '../../platform/invoice-references';
import { qrCodePng } from '../../adapters/qrcode/png';
import type { InvoiceIdPort } from '../../ports/invoices';
import { looksUpCharges, type PixProvider } from '../../ports/payment-provider';
import { callProvider } from './call-provider';

export type PixChargePorts = { ids: InvoiceIdPort; provider: PixProvider; timeoutMs: number };

export type PixChargeRequest = {
  /** What the invoice shares with its sale (the API's charge fields, or the hosted checkout's sale), for the ids drawn. */
  base: (ids: InvoiceIds) => InvoiceBase;
  totalCents: number;
  dueDate: string;
  merchantName: string;
  payer: NewInvoice['payer'];
  /** Ids (and a txid) to try first: derived from an Idempotency-Key, so a retry finds the PSP's first charge. */
  proposed?: InvoiceIds & { txid?: string };
  /** The ids already checked unused for it (pixChargeIds, read beside the gate): not read again. */
  unused?: InvoiceIds;
  /** The message of a provider failure (502), in the caller's language. */
  failure: string;
  now: Date;
};

/** The ids a Pix charge takes, checked unused (the proposed ones first): its only reads, which a route sends beside its gate. */
export function pixChargeIds(ids: InvoiceIdPort, now: Date, proposed?: InvoiceIds): Promise<InvoiceIds> {
  return ids.unused(now, proposed && { invoiceId: proposed.invoiceId, reference: proposed.reference });
}

/**
 * Creates a Pix charge, the one way for the API route and the hosted checkout alike: ids checked unused
 * BEFORE the provider is asked (so it is asked once per invoice), the provider asked within its time
 * limit (a failure → 502, a refusal → 400/422, nothing recorded), the QR code drawn once, and the
 * PENDING invoice as ONE change (`invoice.created`, its ids reserved with it: an id taken after the
 * check fails the commit with 503, never a second registration).
 */
export async function createPixCharge(ports: PixChargePorts, request: PixChargeRequest): Promise<{ answer: NewInvoice; changes: Change[] }> {
  const { proposed } = request;
  const ids = request.unused ?? (await pixChargeIds(ports.ids, request.now, proposed));
  const txid = proposed?.txid !== undefined && proposed.reference === ids.reference ? proposed.txid : txidForReference(ids.reference);
  const charge = await callProvider(
    ports.provider.charges.pix({
      reference: ids.reference,
      txid,
      amountCents: request.totalCents,
      dueDate: request.dueDate,
      merchantName: request.merchantName,
      payer: request.payer,
    }),
    ports.timeoutMs,
    request.failure,
  );
  const invoice = pendingInvoice(
    request.base(ids),
    ids,
    { dueDate: request.dueDate, payer: request.payer, provider: ports.provider.name },
    {
      method: 'pix',
      pix: { txid: charge.txid, location: charge.location, copy: charge.copy, qrPng: qrCodePng(charge.copy) },
      awaitsPixLookup: looksUpCharges(ports.provider),
    },
  );
  return { answer: invoice, changes: [{ kind: 'invoice.created', invoice }] };
}

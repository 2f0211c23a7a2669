import type { Caller } from '../../domain/account';
import type { Change } from '../../domain/changes';
import { type InvoiceBase, type InvoiceIds, type NewInvoice, pendingInvoice } from '../../domain/invoice';
import { idempotentPixIds, invoiceIdDraw, txidForReference } from '../../platform/invoice-references';
import type { InvoiceIdPort } from '../../ports/invoices';
import type { QrCodeDrawer } from '../../ports/qr-code';
import { looksUpCharges, type PixProvider } from '../../ports/payment-provider';
import { callProvider } from './call-provider';
import { assertPixDueDateCarried, baseInvoice, checkedDatedCharge, type ChargeBody, merchantName } from './charge-request';

export type PixChargePorts = {
  ids: InvoiceIdPort;
  provider: PixProvider;
  timeoutMs: number;
  /** Draws the BR Code's QR image, stored with the invoice. */
  qrCodes: QrCodeDrawer;
};

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
      pix: { txid: charge.txid, location: charge.location, copy: charge.copy, qrPng: ports.qrCodes.png(charge.copy) },
      awaitsPixLookup: looksUpCharges(ports.provider),
    },
  );
  return { answer: invoice, changes: [{ kind: 'invoice.created', invoice }] };
}

/** The API's Pix charge request as the use case reads it (the route's body schema gives it: shared/http/route-table/charges.ts). */
export type PixChargeBody = ChargeBody & { email?: string; /** CPF or CNPJ, bare (the schema strips its punctuation). */ document?: string; client?: string };

export type ApiPixChargeRequest = {
  caller: Caller;
  body: PixChargeBody;
  idempotencyKey: string | undefined;
  /** The ids apiPixChargeIds checked unused beside the gate: not read again. */
  unused?: InvoiceIds;
  /** The message of a provider failure (502). */
  failure: string;
  now: Date;
};

/**
 * The ids (and txid) an API Pix charge proposes: with an Idempotency-Key they are derived from it, so a
 * retry after a 502 registers nothing new at the PSP; without one, none (ids are drawn).
 */
export function proposedPixIds(accountId: string, idempotencyKey: string | undefined): (InvoiceIds & { txid: string }) | undefined {
  if (idempotencyKey === undefined) return undefined;
  const derived = idempotentPixIds(accountId, idempotencyKey);
  return { reference: derived.reference, txid: derived.txid, invoiceId: invoiceIdDraw.numericId(derived.reference) };
}

/** An API Pix charge's only reads (ids checked unused, the proposed ones first), which its route sends beside its gate. */
export function apiPixChargeIds(ids: InvoiceIdPort, accountId: string, idempotencyKey: string | undefined, now: Date): Promise<InvoiceIds> {
  return pixChargeIds(ids, now, proposedPixIds(accountId, idempotencyKey));
}

/**
 * POST /api/pix/create: the account's Pix enabled (400 method_not_enabled), the due date today or later
 * (Brazil's date) and within what a Pix charge can stay payable, the total within Pix's ceiling (422 on
 * due_date or amount/discount), checked before anything is read or asked; then the one Pix charge
 * (createPixCharge) under the ids an Idempotency-Key proposes.
 */
export async function createApiPixCharge(ports: PixChargePorts, request: ApiPixChargeRequest): Promise<{ answer: NewInvoice; changes: Change[] }> {
  const { caller, body, now } = request;
  const total = checkedDatedCharge(caller, body, now, 'pix', assertPixDueDateCarried);
  return createPixCharge(ports, {
    base: (ids) => baseInvoice(caller, body, ids, total, now),
    totalCents: total,
    dueDate: body.due_date,
    merchantName: merchantName(caller),
    payer: { email: body.email, name: body.client, document: body.document },
    proposed: proposedPixIds(caller.accountId, request.idempotencyKey),
    unused: request.unused,
    failure: request.failure,
    now,
  });
}

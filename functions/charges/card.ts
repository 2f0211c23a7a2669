import { createHash, randomUUID } from 'node:crypto';
import { requireCaller } from '../../shared/auth/caller';
import { cardFieldErrors, last4, normalizeBrand } from '../../shared/cards/card';
import { newEvent, outboxWrite } from '../../shared/events/outbox';
import { BadRequestError, UpstreamError, ValidationError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { paymentCredit } from '../../shared/ledger/movements';
import {
  assertMethodEnabled,
  baseInvoice,
  callProvider,
  checkedTotalCents,
  invoiceCreationWrites,
  unusedInvoiceIds,
  voidUnlessRecorded,
} from '../../shared/invoices/create';
import { cardTransaction, invoiceEventData, invoiceItem } from '../../shared/invoices/record';
import { formatCents } from '../../shared/money';
import type { CardAuthorization } from '../../shared/providers/port';
import { paymentProvider } from '../../shared/providers/registry';
import { chargesRoutes as routes } from '../../shared/http/route-table/charges';

/**
 * The provider's idempotency key: one per (account, Idempotency-Key), so a retry after a lost answer
 * finds the first authorization; without a key every call is a new authorization (the caller's choice).
 */
function providerIdempotencyKey(accountId: string, idempotencyKey: string | undefined): string {
  const source = idempotencyKey === undefined ? `once:${randomUUID()}` : `key:${accountId}:${idempotencyKey}`;
  return createHash('sha256').update(`card-authorization:${source}`).digest('hex');
}

/**
 * POST /api/creditcard/create: authorized at once through the provider. Approved → the invoice is
 * PAID, the balance credited and invoice.paid written to the outbox, all in one transaction.
 * Declined → 400 and nothing is written. The card number and CVV are never stored, logged or echoed.
 */
export const handler = httpHandler(routes.createCard, async ({ body, caller, idempotencyKey, runtime, now }) => {
  const account = requireCaller(caller);
  assertMethodEnabled(account, 'creditcard');
  const card = {
    number: body.creditcard_number,
    cvv: body.creditcard_cvv,
    month: body.creditcard_month,
    year: body.creditcard_year,
    brand: body.creditcard_brand,
  };
  const errors = cardFieldErrors(card, now);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  const brand = normalizeBrand(body.creditcard_brand);
  if (!brand) throw new ValidationError({ creditcard_brand: ['Unknown card brand'] });
  const total = checkedTotalCents(body, 'creditcard');
  const ids = await unusedInvoiceIds(runtime, now);
  const provider = paymentProvider(runtime.config);
  const request = {
    reference: ids.reference,
    amountCents: total,
    installments: body.installments,
    description: body.item_name,
    card: { ...card, brand, holder: body.creditcard_holder },
  };
  const failed = 'The card processor failed to answer; nothing was charged. Retry with the same Idempotency-Key.';
  // A key whose authorization we voided (its invoice could not be recorded) is spent: the next key follows from it.
  let providerKey = providerIdempotencyKey(account.accountId, idempotencyKey);
  let authorization: CardAuthorization;
  for (let round = 0; ; round += 1) {
    const authorizing = provider.authorizeCard({ ...request, idempotencyKey: providerKey });
    authorization = await callProvider(authorizing, runtime.config.payments.timeoutMs, failed);
    if (authorization.outcome !== 'voided') break;
    if (round >= 3) throw new UpstreamError('upstream_failed', failed);
    providerKey = createHash('sha256').update(`${providerKey}:after-void:${authorization.transactionId}`).digest('hex');
  }
  if (authorization.outcome === 'declined') throw new BadRequestError(authorization.message, 'card_declined');
  const cardFields = {
    brand,
    last4: last4(card.number),
    installments: body.installments,
    transactionId: authorization.transactionId,
    transactionStatus: authorization.status,
    description: body.item_name,
  };
  const item = invoiceItem(
    {
      ...baseInvoice(account, body, ids, total, now),
      method: 'creditcard',
      status: 'PAID',
      paidAt: now.toISOString(),
      payer: { email: body.email, name: body.creditcard_holder },
      card: cardFields,
      provider: provider.name,
    },
    (await runtime.serviceKeys()).personalData,
  );
  const table = runtime.config.tableName;
  const approved = authorization;
  return {
    status: 200,
    body: {
      invoice: {
        reference: ids.reference,
        total: formatCents(total),
        due_date: body.due_date,
        status: 'PAID',
        transaction: cardTransaction(cardFields, total),
      },
    },
    writes: [
      ...invoiceCreationWrites(table, item),
      ...paymentCredit(
        table,
        { accountId: account.accountId, reference: ids.reference, description: `Payment of ${ids.reference} (creditcard)`, at: now.toISOString() },
        total,
      ),
      outboxWrite(table, account.accountId, newEvent('invoice.paid', invoiceEventData(item, 'PAID'), now)),
    ],
    // An approved authorization that could not be recorded is voided: no charge without its invoice.
    compensate: () => voidUnlessRecorded(runtime, ids.reference, approved.transactionId, undefined, provider.name),
  };
});

import { createHash, randomBytes } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { requireCaller } from '../../shared/auth/caller';
import { cardFieldErrors, last4, normalizeBrand } from '../../shared/cards/card';
import { declineLockOf, declineWrites, readDeclineLogs } from '../../shared/adapters/dynamo/card-declines';
import { CARD_DECLINED_MESSAGE, cardFingerprint } from '../../shared/cards/declines';
import { logger } from '../../shared/logger';
import {
  attemptRecordedWrite,
  attemptUnknownWrite,
  type CardAttempt,
  cardAttemptKey,
  dropOpenAttempt,
  openCardAttempt,
  readCardAttempt,
} from '../../shared/adapters/dynamo/card-attempts';
import { askProvider, settleCardAttempt } from '../../shared/charges/card-settle';
import { newEvent } from '../../shared/events/outbox';
import { outboxWrite } from '../../shared/adapters/dynamo/outbox';
import { BadRequestError, CardDeclinesExceededError, CardOutcomeUnknownError, ConflictError, TemporaryConflictError, UpstreamError, ValidationError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { paymentCredit } from '../../shared/domain/ledger';
import { transferWrites } from '../../shared/adapters/dynamo/ledger';
import {
  assertMethodEnabled,
  baseInvoice,
  callProvider,
  checkedTotalCents,
  invoiceCreationWrites,
  unusedInvoiceIds,
  voidUnlessRecorded,
} from '../../shared/invoices/create';
import { invoiceByReference } from '../../shared/adapters/dynamo/invoice-lookup';
import { cardTransaction, type CardFields, invoiceItem } from '../../shared/invoices/record';
import { invoiceEventData } from '../../shared/domain/invoice';
import { formatCents } from '../../shared/domain/money';
import { type CardAuthorization, type PaymentProvider, ProviderTimeoutError, withProviderTimeout } from '../../shared/providers/port';
import { paymentProvider } from '../../shared/providers/registry';
import type { RouteResult } from '../../shared/http/answer';
import type { Runtime } from '../../shared/runtime';
import type { Item } from '../../shared/adapters/dynamo/dynamo';
import { commitWrites } from '../../shared/adapters/dynamo/transact';
import { keys } from '../../shared/adapters/dynamo/keys';
import { chargesRoutes as routes } from '../../shared/http/route-table/charges';

const NOT_CHARGED = 'The card processor failed to answer, and confirmed it did not charge the card: nothing was charged. Retry.';
const RECORDED_MEANWHILE = 'This charge was recorded by another request meanwhile; retry to get its answer.';

/** The answer of a PAID card invoice: what the first request answered (a retry of the same charge gets it again). */
function paidAnswer(invoice: Item): RouteResult {
  const card = invoice.card as CardFields;
  return {
    status: 200,
    body: {
      invoice: {
        reference: String(invoice.reference),
        total: formatCents(Number(invoice.totalCents)),
        due_date: String(invoice.dueDate),
        status: 'PAID',
        transaction: cardTransaction(card, Number(invoice.totalCents)),
      },
    },
  };
}

/** A charge already settled (a retry): its PAID invoice's answer; another state is a conflict that names it. */
async function settledAnswer(runtime: Runtime, reference: string): Promise<RouteResult> {
  const invoice = await invoiceByReference(runtime, reference);
  if (invoice?.status === 'PAID' && typeof (invoice.card as Partial<CardFields> | undefined)?.transactionId === 'string') return paidAnswer(invoice);
  throw new ConflictError(`This card charge is already recorded as invoice ${reference} (${String(invoice?.status ?? 'being recorded')}).`, 'card_charge_recorded');
}

/** A new provider key for an OPEN attempt whose authorization was voided (it could not be recorded before). */
async function renewProviderKey(runtime: Runtime, attempt: CardAttempt, voidedTransaction: string): Promise<CardAttempt> {
  const providerKey = createHash('sha256').update(`${attempt.providerKey}:after-void:${voidedTransaction}:${randomBytes(8).toString('hex')}`).digest('hex');
  await runtime.db.send(
    new UpdateCommand({
      TableName: runtime.config.tableName,
      Key: keys.cardAttempt(attempt.key),
      UpdateExpression: 'SET providerKey = :new',
      ConditionExpression: 'providerKey = :old AND #status = :open',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':new': providerKey, ':old': attempt.providerKey, ':open': 'OPEN' },
    }),
  );
  return { ...attempt, providerKey };
}

type Outcome = { kind: 'authorized'; authorization: Extract<CardAuthorization, { outcome: 'approved' }> } | { kind: 'unknown' };

/**
 * Asks the provider under the attempt's key. A lost or failed answer is verified at once by asking the
 * provider what it holds under that key: approved (recorded below), declined, or never received
 * (nothing charged: verified, the attempt is dropped); when it cannot be asked either, the outcome is
 * unknown.
 */
async function authorize(runtime: Runtime, provider: PaymentProvider, start: CardAttempt, request: Omit<Parameters<PaymentProvider['authorizeCard']>[0], 'idempotencyKey'>): Promise<{ attempt: CardAttempt; outcome: Outcome }> {
  let attempt = start;
  let timedOut = false;
  for (let round = 0; ; round += 1) {
    let authorization: CardAuthorization;
    try {
      authorization = await callProvider(
        withProviderTimeout(provider.authorizeCard({ ...request, idempotencyKey: attempt.providerKey }), runtime.config.payments.timeoutMs).catch((err: unknown) => {
          // Remembered for below: a timeout may still take effect at the provider, an error it answered may not.
          timedOut = err instanceof ProviderTimeoutError;
          throw err;
        }),
        runtime.config.payments.timeoutMs,
        NOT_CHARGED,
      );
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      const held = await askProvider(runtime, attempt);
      if (held === undefined || (held.outcome === 'not_found' && timedOut)) return { attempt, outcome: { kind: 'unknown' } };
      if (held.outcome === 'approved')
        return { attempt, outcome: { kind: 'authorized', authorization: { outcome: 'approved', transactionId: held.transactionId, status: held.status, message: 'Approved' } } };
      await dropOpenAttempt(runtime, attempt);
      if (held.outcome === 'declined') throw new BadRequestError('Card declined by the issuer', 'card_declined');
      // The provider answered with an error and holds nothing under the key: verified, nothing was charged.
      throw new UpstreamError('upstream_failed', NOT_CHARGED);
    }
    if (authorization.outcome === 'approved') return { attempt, outcome: { kind: 'authorized', authorization } };
    if (authorization.outcome === 'declined') {
      await dropOpenAttempt(runtime, attempt);
      throw new BadRequestError(authorization.message, 'card_declined');
    }
    // The key's authorization was voided (it could not be recorded before): authorize anew under another key.
    if (round >= 3) throw new UpstreamError('upstream_failed', NOT_CHARGED);
    attempt = await renewProviderKey(runtime, attempt, authorization.transactionId);
  }
}

/**
 * POST /api/creditcard/create: authorized at once through the provider. Approved → the invoice is
 * PAID, the balance credited and invoice.paid written to the outbox, all in one transaction with the
 * attempt's move to RECORDED. Declined → 400 and nothing is written. No answer → verified with the
 * provider at once; when it cannot be asked either, the invoice is recorded PENDING and the answer is
 * 502 card_outcome_unknown naming it (settled by a retry or the checkout upkeep: PAID or CANCELED).
 * Each charge has one attempt (its Idempotency-Key, or its keyed fingerprint): a retry asks the
 * provider under the same key and never authorizes twice. The card number and CVV are never stored,
 * logged or echoed.
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
  const provider = paymentProvider(runtime.config);
  const serviceKeys = await runtime.serviceKeys();
  const attemptKey = cardAttemptKey(
    account.accountId,
    idempotencyKey,
    { cardNumber: card.number, month: card.month, year: card.year, totalCents: total, installments: body.installments, invoiceNo: body.invoice_no, itemName: body.item_name },
    serviceKeys.idempotency,
  );
  // Card testing (issue 31): a card, or an account, declined too often within the hour is refused before the processor is asked.
  const declineScope = { fingerprint: cardFingerprint(card.number, serviceKeys.idempotency), accountId: account.accountId };
  const declineLogs = await readDeclineLogs(runtime, declineScope);
  const lock = declineLockOf(runtime, declineLogs, now.getTime());
  if (lock.locked) {
    logger.warn('card attempt refused: declined too often within the hour', { accountId: account.accountId, by: lock.by });
    throw new CardDeclinesExceededError(lock.retryAfterSeconds);
  }
  let attempt = await readCardAttempt(runtime, attemptKey);
  if (attempt?.status === 'RECORDED') {
    // The same charge again: its first answer, marked as a replay (as an Idempotency-Key's replay is).
    const replay = await settledAnswer(runtime, attempt.reference);
    return { ...replay, headers: { ...replay.headers, 'Idempotent-Replayed': 'true' } };
  }
  if (attempt?.status === 'UNKNOWN') {
    // A retry of a charge whose answer was lost: ask the provider under the same key, never authorize again.
    const settled = await settleCardAttempt(runtime, attempt, now);
    if (settled === 'paid') return settledAnswer(runtime, attempt.reference);
    if (settled === 'unknown') throw new CardOutcomeUnknownError(attempt.reference);
    attempt = undefined;
  }
  if (!attempt) {
    const ids = await unusedInvoiceIds(runtime, now);
    attempt = await openCardAttempt(runtime, attemptKey, { accountId: account.accountId, reference: ids.reference, invoiceId: ids.invoiceId, provider: provider.name }, now);
    if (attempt.status !== 'OPEN') throw new TemporaryConflictError(RECORDED_MEANWHILE);
  }
  const ids = { reference: attempt.reference, invoiceId: attempt.invoiceId };
  const request = {
    reference: ids.reference,
    amountCents: total,
    installments: body.installments,
    description: body.item_name,
    card: { ...card, brand, holder: body.creditcard_holder },
  };
  const asked = await authorize(runtime, provider, attempt, request).catch(async (err: unknown) => {
    if (err instanceof BadRequestError && err.code === 'card_declined') {
      // Counted toward the caps, and one line per decline for the per-merchant alarm (infra/cdk/card-testing.ts).
      await commitWrites(runtime.db, declineWrites(runtime.config.tableName, declineScope, declineLogs, runtime.config.cardDeclines, now));
      logger.info(CARD_DECLINED_MESSAGE, { accountId: account.accountId });
    }
    throw err;
  });
  attempt = asked.attempt;
  const invoiceBase = {
    ...baseInvoice(account, body, ids, total, now),
    method: 'creditcard' as const,
    payer: { email: body.email, name: body.creditcard_holder },
    provider: provider.name,
  };
  const summary = { brand, last4: last4(card.number), installments: body.installments, description: body.item_name };
  const table = runtime.config.tableName;
  const conflict = () => new TemporaryConflictError(RECORDED_MEANWHILE);
  if (asked.outcome.kind === 'unknown') {
    // Nothing verified: the invoice waits PENDING, the attempt UNKNOWN in the settler's index, one transaction.
    const pending = invoiceItem({ ...invoiceBase, status: 'PENDING', card: summary as CardFields }, serviceKeys.personalData);
    await commitWrites(runtime.db, [...invoiceCreationWrites(table, pending), attemptUnknownWrite(table, attempt, now, conflict)]);
    throw new CardOutcomeUnknownError(ids.reference);
  }
  const approved = asked.outcome.authorization;
  const cardFields: CardFields = { ...summary, transactionId: approved.transactionId, transactionStatus: approved.status };
  const paid = { ...invoiceBase, status: 'PAID' as const, paidAt: now.toISOString(), card: cardFields };
  const item = invoiceItem(paid, serviceKeys.personalData);
  const recordedAttempt = attempt;
  return {
    ...paidAnswer(item),
    writes: [
      ...invoiceCreationWrites(table, item),
      ...transferWrites(
        table,
        paymentCredit({ accountId: account.accountId, reference: ids.reference, description: `Payment of ${ids.reference} (creditcard)`, at: now.toISOString() }, total),
      ),
      outboxWrite(table, account.accountId, newEvent('invoice.paid', invoiceEventData(paid, 'PAID'), now)),
      attemptRecordedWrite(table, recordedAttempt, conflict),
    ],
    // An approved authorization that could not be recorded is voided: no charge without its invoice.
    compensate: () => voidUnlessRecorded(runtime, ids.reference, approved.transactionId, undefined, provider.name),
  };
});

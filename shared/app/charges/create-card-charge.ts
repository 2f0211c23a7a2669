import { performance } from 'node:perf_hooks';
import { cardAttemptKey } from '../../domain/card-attempt-key';
import { cardFieldErrors, last4, normalizeBrand } from '../../domain/card';
import { CARD_DECLINED_MESSAGE, cardAttemptScopes, cardFingerprint } from '../../domain/card-fingerprint';
import type { Caller } from '../../domain/account';
import type { SlotTicket } from '../../domain/attempt-slots';
import type { CardAttempt, DeclineLimits } from '../../domain/card-attempt';
import type { Change } from '../../domain/changes';
import { type CardFields, type InvoiceIds, invoiceEventData, type NewInvoice } from '../../domain/invoice';
import { FIRST_VERSION } from '../../domain/object-version';
import { cardTransaction } from '../../domain/payment-methods';
import { paymentCredit } from '../../domain/ledger';
import { formatCents } from '../../domain/money';
import {
  BadRequestError,
  CardDeclinesExceededError,
  CardOutcomeUnknownError,
  CardRecordedMeanwhileError,
  ConflictError,
  UnprocessableError,
  UpstreamError,
  ValidationError,
} from '../../domain/errors';
import { logger } from '../../platform/logger';
import type { AttemptSlots } from '../../ports/attempt-slots';
import type { InvoiceIdPort } from '../../ports/invoices';
import { releaseQuietly } from '../limits/attempt-slots';
import { type CardAuthorization, type CardRequest, type PaymentProvider, ProviderTimeoutError } from '../../ports/payment-provider';
import { withProviderTimeout } from '../time-limits';
import { callProvider } from './call-provider';
import { assertMethodEnabled, baseInvoice, type ChargeBody, checkedTotalCents } from './charge-request';
import { askProvider, type CardSettlePorts, settleCardAttempt } from './settle-card-attempt';
import { voidUnlessRecorded } from './void-unless-recorded';

/** The shortest authorization worth making again under a renewed key. */
const MIN_CALL_MS = 250;

const NOT_CHARGED = 'The card processor failed to answer, and confirmed it did not charge the card: nothing was charged. Retry.';

/** The card charge's request as the use case reads it (the route's body schema gives it: shared/http/route-table/charges.ts). */
export type CardChargeBody = ChargeBody & {
  email: string;
  installments: number;
  creditcard_holder: string;
  creditcard_number: string;
  creditcard_cvv: string;
  creditcard_month: number;
  creditcard_year: number;
  creditcard_brand: string;
};

export type CardChargePorts = CardSettlePorts & {
  ids: InvoiceIdPort;
  /** The card-testing caps' logs (issue 43): a slot taken before the provider is asked. */
  slots: AttemptSlots;
  declineLimits: DeclineLimits;
  /** The configured card provider (new charges); an attempt's own provider is found by name (providerNamed). */
  provider: PaymentProvider;
  /** The keys: the idempotency key keys the attempt's and the card's fingerprints. */
  idempotencyKey: () => Promise<Buffer>;
  /** The time left for the request's clean-up: a void of an unrecorded authorization fits it (void-unless-recorded.ts). */
  cleanupLeftMs?: () => number | undefined;
};

export type CardChargeRequest = {
  caller: Caller;
  body: CardChargeBody;
  idempotencyKey: string | undefined;
  now: Date;
  /** What cardChargeReads read beside the gate: used when it is this charge's (its attempt key), else read again. */
  read?: CardChargeReads;
};

/** A card charge's reads before the provider is asked: the charge's attempt, and ids checked unused for a new one. */
export type CardChargeReads = { attemptKey: string; attempt: CardAttempt | undefined; ids: InvoiceIds };

/** The charge's keys: its attempt's (the Idempotency-Key, or the keyed fingerprint of the charge) and its card's decline scope. */
function chargeKeys(accountId: string, body: CardChargeBody, idempotencyKey: string | undefined, totalCents: number, secret: Buffer) {
  const attemptKey = cardAttemptKey(
    accountId,
    idempotencyKey,
    {
      cardNumber: body.creditcard_number,
      month: body.creditcard_month,
      year: body.creditcard_year,
      totalCents,
      installments: body.installments,
      invoiceNo: body.invoice_no,
      itemName: body.item_name,
    },
    secret,
  );
  return { attemptKey, declineScope: { fingerprint: cardFingerprint(body.creditcard_number, secret), accountId } };
}

/**
 * A card charge's reads, together (a route sends them beside its gate and lock): the charge's attempt
 * and ids checked unused. They need only the body and the token's account; the charge checks the body
 * itself before it uses them.
 */
export async function cardChargeReads(
  ports: Pick<CardChargePorts, 'ids' | 'attempts' | 'idempotencyKey'>,
  request: { accountId: string; body: CardChargeBody; idempotencyKey: string | undefined; now: Date },
): Promise<CardChargeReads> {
  const { attemptKey } = chargeKeys(
    request.accountId,
    request.body,
    request.idempotencyKey,
    checkedTotalCents(request.body, 'creditcard'),
    await ports.idempotencyKey(),
  );
  const [attempt, ids] = await Promise.all([ports.attempts.read(attemptKey), ports.ids.unused(request.now)]);
  return { attemptKey, attempt, ids };
}

/** What the route answers: the invoice (or a replay of it), the changes to commit with the idempotency record, the compensation. */
export type CardChargeResult = {
  answer: { invoice: Record<string, unknown> };
  replayed?: true;
  changes: Change[];
  compensate?: () => Promise<void>;
};

/** The answer of a PAID card invoice: what the first request answered (a retry of the same charge gets it again). */
function paidAnswer(invoice: { reference: string; totalCents: number; dueDate: string; card?: CardFields }): CardChargeResult['answer'] {
  const card = invoice.card as CardFields;
  return {
    invoice: {
      reference: invoice.reference,
      total: formatCents(invoice.totalCents),
      due_date: invoice.dueDate,
      status: 'PAID',
      transaction: cardTransaction(card, invoice.totalCents),
    },
  };
}

/** A charge already settled (a retry): its PAID invoice's answer; another state is a conflict that names it. */
async function settledAnswer(ports: CardChargePorts, reference: string): Promise<CardChargeResult['answer']> {
  const invoice = await ports.invoices.byReference(reference);
  if (invoice?.status === 'PAID' && typeof invoice.card?.transactionId === 'string') return paidAnswer(invoice);
  throw new ConflictError(`This card charge is already recorded as invoice ${reference} (${invoice?.status ?? 'being recorded'}).`, 'card_charge_recorded');
}

type Outcome = { kind: 'authorized'; authorization: Extract<CardAuthorization, { outcome: 'approved' }> } | { kind: 'unknown' };

/**
 * Asks the provider under the attempt's key. A lost or failed answer is verified at once by asking the
 * provider what it holds under that key: approved (recorded below), declined, or never received
 * (nothing charged: verified, the attempt is dropped); when it cannot be asked either, the outcome is
 * unknown.
 */
async function authorize(
  ports: CardChargePorts,
  start: CardAttempt,
  request: Omit<CardRequest, 'idempotencyKey'>,
): Promise<{ attempt: CardAttempt; outcome: Outcome }> {
  let attempt = start;
  let timedOut = false;
  // The time budget (shared/domain/time-budgets.ts, CreateCardCharge): an authorization and a status check, two
  // provider limits in all. An authorization made again under a renewed key takes only what the first left.
  const phaseEnd = performance.now() + 2 * ports.timeoutMs;
  for (let round = 0; ; round += 1) {
    const callMs = Math.min(ports.timeoutMs, Math.floor(phaseEnd - performance.now() - ports.timeoutMs));
    let authorization: CardAuthorization;
    try {
      authorization = await callProvider(
        withProviderTimeout(ports.provider.charges.card({ ...request, idempotencyKey: attempt.providerKey }), callMs).catch((err: unknown) => {
          // Remembered for below: a timeout may still take effect at the provider, an error it answered may not.
          timedOut = err instanceof ProviderTimeoutError;
          throw err;
        }),
        callMs,
        NOT_CHARGED,
      );
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      const held = await askProvider(ports, attempt);
      if (held === undefined || (held.outcome === 'not_found' && timedOut)) return { attempt, outcome: { kind: 'unknown' } };
      if (held.outcome === 'approved')
        return {
          attempt,
          outcome: { kind: 'authorized', authorization: { outcome: 'approved', transactionId: held.transactionId, status: held.status, message: 'Approved' } },
        };
      await ports.attempts.drop(attempt);
      if (held.outcome === 'declined') throw new BadRequestError('Card declined by the issuer', 'card_declined');
      // The provider answered with an error and holds nothing under the key: verified, nothing was charged.
      throw new UpstreamError('upstream_failed', NOT_CHARGED);
    }
    if (authorization.outcome === 'approved') return { attempt, outcome: { kind: 'authorized', authorization } };
    if (authorization.outcome === 'declined') {
      await ports.attempts.drop(attempt);
      throw new BadRequestError(authorization.message, 'card_declined');
    }
    // The key's authorization was voided (it could not be recorded before): authorize anew under another key,
    // while the budget leaves time for it (else nothing is charged: the voided one stays voided).
    if (round >= 3 || phaseEnd - performance.now() - ports.timeoutMs < MIN_CALL_MS) throw new UpstreamError('upstream_failed', NOT_CHARGED);
    attempt = await ports.attempts.renewProviderKey(attempt, authorization.transactionId);
  }
}

/** Takes the attempt's slot in the card's and the merchant's logs, or refuses it (429 card_declines_exceeded) unasked. */
async function takeDeclineSlots(
  ports: CardChargePorts,
  scope: { fingerprint: string; accountId: string },
  slotId: string,
  now: Date,
  accountId: string,
): Promise<SlotTicket> {
  const taken = await ports.slots.take(cardAttemptScopes(scope, ports.declineLimits), slotId, now);
  if (taken.admitted) return taken.ticket;
  logger.warn('card attempt refused: declined too often within the hour', { accountId, by: taken.refusedBy.kind });
  throw new CardDeclinesExceededError(taken.retryAfterSeconds ?? 1);
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
export async function createCardCharge(ports: CardChargePorts, request: CardChargeRequest): Promise<CardChargeResult> {
  const { caller: account, body, now } = request;
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
  const { provider } = ports;
  const { attemptKey, declineScope } = chargeKeys(account.accountId, body, request.idempotencyKey, total, await ports.idempotencyKey());
  const read = request.read?.attemptKey === attemptKey ? request.read : undefined;
  let attempt = read ? read.attempt : await ports.attempts.read(attemptKey);
  if (attempt?.status === 'RECORDED') {
    // The same charge again: its first answer, marked as a replay (as an Idempotency-Key's replay is).
    return { answer: await settledAnswer(ports, attempt.reference), replayed: true, changes: [] };
  }
  if (attempt?.status === 'UNKNOWN') {
    // A retry of a charge whose answer was lost: ask the provider under the same key, never authorize again.
    const settled = await settleCardAttempt(ports, attempt, now);
    if (settled === 'paid') return { answer: await settledAnswer(ports, attempt.reference), changes: [] };
    if (settled === 'unknown') throw new CardOutcomeUnknownError(attempt.reference);
    attempt = undefined;
  }
  const summary = { brand, last4: last4(card.number), installments: body.installments, description: body.item_name };
  /** The charge's invoice under its ids, before the provider's answer (PENDING: recorded so when that answer is lost). */
  const pendingUnder = (under: InvoiceIds): NewInvoice => ({
    ...baseInvoice(account, body, under, total, now),
    method: 'creditcard' as const,
    payer: { email: body.email, name: body.creditcard_holder },
    provider: provider.name,
    status: 'PENDING',
    card: summary as CardFields,
  });
  if (!attempt) {
    // Ids read beside the gate serve a charge whose attempt they found absent (a settled UNKNOWN one draws anew).
    const fresh = read && !read.attempt ? read.ids : await ports.ids.unused(now);
    // The attempt keeps its PENDING invoice: should this invocation end unanswered, the settler records it (issue 44).
    attempt = await ports.attempts.open(
      attemptKey,
      { accountId: account.accountId, reference: fresh.reference, invoiceId: fresh.invoiceId, provider: provider.name, pending: pendingUnder(fresh) },
      now,
    );
    if (attempt.status !== 'OPEN') throw new CardRecordedMeanwhileError();
  }
  const ids = { reference: attempt.reference, invoiceId: attempt.invoiceId };
  // Card testing (issues 31, 43): a slot in the card's and the merchant's logs, taken in one conditional
  // write before the processor is asked (a full log refuses it unasked). The slot is the attempt's (its
  // reference): a retry of the same attempt is admitted again for its own slot and takes no second.
  const ticket = await takeDeclineSlots(ports, declineScope, attempt.reference, now, account.accountId);
  const asked = await authorize(ports, attempt, {
    reference: ids.reference,
    amountCents: total,
    installments: body.installments,
    description: body.item_name,
    card: { ...card, brand, holder: body.creditcard_holder },
  }).catch(async (err: unknown) => {
    // A decline keeps its slot (counted toward the caps), with one line per decline for the per-merchant alarm (infra/cdk/card-testing.ts).
    if (err instanceof BadRequestError && err.code === 'card_declined') logger.info(CARD_DECLINED_MESSAGE, { accountId: account.accountId });
    // Verified not charged (the provider's error, or its refusal of the request): no decline, the slot is given back.
    else if (err instanceof UpstreamError || err instanceof BadRequestError || err instanceof UnprocessableError) await releaseQuietly(ports.slots, ticket);
    // Anything else keeps it: nobody knows what the provider did.
    throw err;
  });
  // An approval gives the slot back (an answer lost keeps it: it may have been a decline).
  if (asked.outcome.kind === 'authorized') await releaseQuietly(ports.slots, ticket);
  if (asked.outcome.kind === 'unknown') {
    // Nothing verified: the invoice waits PENDING, the attempt UNKNOWN in the settler's index, one transaction.
    const pending = pendingUnder(ids);
    await ports.commit([
      { kind: 'invoice.created', invoice: pending },
      { kind: 'card_attempt.unknown', attempt: asked.attempt, at: now.toISOString() },
    ]);
    throw new CardOutcomeUnknownError(ids.reference);
  }
  const approved = asked.outcome.authorization;
  const cardFields: CardFields = { ...summary, transactionId: approved.transactionId, transactionStatus: approved.status };
  const paid: NewInvoice = { ...pendingUnder(ids), status: 'PAID', paidAt: now.toISOString(), card: cardFields };
  const event = ports.newEvent('invoice.paid', invoiceEventData(paid, 'PAID', { version: FIRST_VERSION, previousStatus: null }), now);
  return {
    answer: paidAnswer(paid),
    changes: [
      { kind: 'invoice.created', invoice: { ...paid, eventIds: [event.id] } },
      paymentCredit(
        { accountId: account.accountId, reference: ids.reference, description: `Payment of ${ids.reference} (creditcard)`, at: now.toISOString() },
        total,
        'creditcard',
      ),
      { kind: 'event.recorded', accountId: account.accountId, event },
      { kind: 'card_attempt.recorded', attempt: asked.attempt },
    ],
    // An approved authorization that could not be recorded is voided: no charge without its invoice.
    compensate: () => voidUnlessRecorded(ports, ids.reference, approved.transactionId),
  };
}

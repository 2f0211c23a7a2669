import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { last4 } from '../../shared/cards/card';
import { declineWrites } from '../../shared/adapters/dynamo/card-declines';
import { declineLockOf } from '../../shared/domain/card-attempt';
import { declineStore } from '../../shared/wiring/cards';
import { CARD_DECLINED_MESSAGE, cardFingerprint, checkoutCardLocked } from '../../shared/cards/declines';
import { type CheckoutCard, parseCardForm } from '../../shared/checkout/card-form';
import { checkoutErrorPage, formBody, isFormPost, seeOther } from '../../shared/http/checkout/browser';
import { checkoutOfLink } from '../../shared/http/checkout/link';
import { CHECKOUT_MAX_INSTALLMENTS, openCheckoutPage } from '../../shared/http/checkout/page-answer';
import { cardLeaseMs, checkoutCardPayment, checkoutCardProviderKey, voidCheckoutCardUnlessRecorded } from '../../shared/checkout/payments';
import { callbackRedirect, cookieValue, CSRF_COOKIE, csrfTokenMatches } from '../../shared/checkout/record';
import { cardAnswerLostWrites, cardAttemptSettledWrites, claimCardAttemptWrite } from '../../shared/adapters/dynamo/checkout-settle';
import { BadRequestError, DomainError } from '../../shared/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { invoiceIds } from '../../shared/wiring/charges';
import { commitWrites } from '../../shared/adapters/dynamo/transact';
import { logger } from '../../shared/logger';
import { BUSINESS_METRICS, countMetric } from '../../shared/metrics/emf';
import { type CardAuthorization, ProviderError, withProviderTimeout } from '../../shared/providers/port';
import { paymentProvider } from '../../shared/providers/registry';
import { checkoutRoutes as routes } from '../../shared/http/route-table/checkout';
import type { Runtime } from '../../shared/runtime';
import type { Checkout } from '../../shared/domain/checkout';
import { keys } from '../../shared/adapters/dynamo/keys';

/** The card is still enabled and the account not disabled (both may have changed since the checkout was created). */
async function assertCardAccepted(runtime: Runtime, accountId: string): Promise<void> {
  const out = await runtime.db.send(
    new GetCommand({ TableName: runtime.config.tableName, Key: keys.account(accountId), ConsistentRead: true, ProjectionExpression: 'methods, disabled' }),
  );
  const methods = out.Item?.methods;
  if (!out.Item || out.Item.disabled === true || !Array.isArray(methods) || !methods.includes('card')) {
    throw new BadRequestError('O pagamento com cartão não está disponível para esta loja no momento.', 'method_not_enabled');
  }
}

/** One authorization under the attempt's key; undefined when its answer was lost (timeout or provider failure). */
async function authorize(runtime: Runtime, checkout: Checkout, card: CheckoutCard, providerKey: string, reference: string): Promise<CardAuthorization | undefined> {
  try {
    return await withProviderTimeout(
      paymentProvider(runtime.config).authorizeCard({
        idempotencyKey: providerKey,
        reference,
        amountCents: checkout.totalCents,
        installments: card.installments,
        description: checkout.title,
        card: { number: card.number, cvv: card.cvv, month: card.month, year: card.year, brand: card.brand, holder: card.holder },
      }),
      runtime.config.payments.timeoutMs,
    );
  } catch (err) {
    if (err instanceof ProviderError) return undefined;
    throw err;
  }
}

const DECLINED = 'Pagamento recusado pelo emissor do cartão. Confira os dados ou use outro cartão.';
const CHECKING = 'Não recebemos a resposta da operadora do cartão. Estamos verificando o pagamento: não pague de novo agora; esta página se atualiza sozinha.';
const RETRY = 'Não foi possível concluir o pagamento. Tente novamente.';
const CARD_TOO_MANY_DECLINES = 'Não é possível pagar com este cartão agora: houve tentativas recusadas demais. Pague com Pix ou tente mais tarde.';

/**
 * POST /checkout/{reference}/{token}/card: the checkout page's card form. Checks the link, the CSRF
 * token against the page's cookie (403), the account's card setting (400) and the fields (the page
 * again, 422); then authorizes through the provider under the attempt's idempotency key. Approved:
 * the card invoice, credit, invoice.paid, the checkout's move to PAID and order.paid in one
 * transaction, then 303 to callback_url (a checkout paid meanwhile voids the authorization). Declined:
 * the page again (400), next attempt. No answer: the checkout is UNKNOWN until the provider tells
 * (the upkeep asks it); the page says so (502). The number and CVV are never stored, logged or echoed.
 */
export const handler = httpHandler(
  routes.checkoutCard,
  async ({ params, event, runtime, now }) => {
    const checkout = await checkoutOfLink(runtime, params);
    if (checkout.status === 'PAID') return seeOther(callbackRedirect(checkout));
    if (checkout.status === 'ABANDONED') throw new DomainError('gone', 'Este pagamento expirou. Volte à loja para começar de novo.', 'checkout_abandoned');
    const { reference, accountId } = checkout;
    // The page's form only (issue 31): a JSON, multipart or text/plain post is no card form of ours.
    if (!isFormPost(event.headers?.['content-type'])) {
      throw new BadRequestError('Envie o formulário da página de pagamento (application/x-www-form-urlencoded).', 'unsupported_content_type');
    }
    const fields = new URLSearchParams(formBody(event));
    const { boletoLinks } = await runtime.serviceKeys();
    if (
      fields.getAll('csrf_token').length !== 1 ||
      !csrfTokenMatches(reference, cookieValue(event.cookies, CSRF_COOKIE), fields.get('csrf_token') ?? undefined, boletoLinks)
    ) {
      throw new DomainError('forbidden', 'Esta página expirou. Recarregue a página e tente de novo.', 'csrf_mismatch');
    }
    await assertCardAccepted(runtime, accountId);
    // Card testing (issue 31): a checkout that took its declined attempts asks the provider nothing more.
    if (checkoutCardLocked(checkout.cardDeclines, runtime.config.cardDeclines.perCheckout)) {
      logger.warn('card attempt refused: the checkout took its declined attempts', { checkout: reference, accountId });
      return openCheckoutPage(runtime, checkout, event.cookies, 400);
    }
    const parsed = parseCardForm(fields, now, CHECKOUT_MAX_INSTALLMENTS);
    if (!parsed.ok) return openCheckoutPage(runtime, checkout, event.cookies, 422, { values: parsed.values, fieldErrors: parsed.fieldErrors });
    const { card, values } = parsed;
    const table = runtime.config.tableName;
    const scope = { fingerprint: cardFingerprint(card.number, (await runtime.serviceKeys()).idempotency), accountId };
    const declineLogs = await declineStore(runtime).read(scope);
    const lock = declineLockOf(declineLogs, runtime.config.cardDeclines, now.getTime());
    if (lock.locked) {
      logger.warn('card attempt refused: declined too often within the hour', { checkout: reference, accountId: scope.accountId, by: lock.by });
      const page = await openCheckoutPage(runtime, checkout, event.cookies, 429, { values, notice: { kind: 'error', message: CARD_TOO_MANY_DECLINES } });
      return { ...page, headers: { ...page.headers, 'Retry-After': String(lock.retryAfterSeconds) } };
    }
    const providerKey = checkoutCardProviderKey(reference, checkout.cardAttempt);
    const drawn = await invoiceIds(runtime).unused(now);
    const invoiceReference = drawn.reference;
    // One card attempt at a time per checkout: a concurrent post (a double click, another tab) waits (409).
    const lease = { id: randomUUID(), untilMs: now.getTime() + cardLeaseMs(runtime.config.payments.timeoutMs) };
    await commitWrites(runtime.db, [claimCardAttemptWrite(table, checkout, lease, now.getTime())]);
    const authorization = await authorize(runtime, checkout, card, providerKey, invoiceReference);
    if (!authorization) {
      logger.warn('checkout card answer lost: checkout UNKNOWN until the provider tells', { checkout: reference });
      const lost = { providerKey, brand: card.brand, last4: last4(card.number), installments: card.installments, holder: card.holder, at: now.toISOString() };
      const page = await openCheckoutPage(runtime, { ...checkout, status: 'UNKNOWN' }, event.cookies, 502, {
        values,
        notice: { kind: 'unknown', message: CHECKING },
      });
      return { ...page, writes: cardAnswerLostWrites(table, checkout, lost) };
    }
    if (authorization.outcome !== 'approved') {
      const notice = authorization.outcome === 'declined' ? { kind: 'declined' as const, message: DECLINED } : { kind: 'error' as const, message: RETRY };
      const page = await openCheckoutPage(runtime, { ...checkout, status: 'PENDING' }, event.cookies, 400, { values, notice });
      // Published once this answer's writes are committed (observe.ts holds a request's counts until then).
      if (authorization.outcome !== 'declined') return { ...page, writes: cardAttemptSettledWrites(table, checkout) };
      countMetric(BUSINESS_METRICS.cardDeclines);
      // One line per decline, by merchant: the card-testing Contributor Insights rule counts them (infra/cdk/card-testing.ts).
      logger.info(CARD_DECLINED_MESSAGE, { accountId: scope.accountId, checkout: reference });
      return {
        ...page,
        writes: [...cardAttemptSettledWrites(table, checkout, { declined: true }), ...declineWrites(table, scope, declineLogs, runtime.config.cardDeclines, now)],
      };
    }
    const summary = { brand: card.brand, last4: last4(card.number), installments: card.installments, holder: card.holder };
    const payment = await checkoutCardPayment(runtime, checkout, drawn, summary, authorization, now, paymentProvider(runtime.config).name);
    // Published once the payment's writes are committed (observe.ts holds a request's counts until then).
    countMetric(BUSINESS_METRICS.chargesCreated, { method: 'card' });
    countMetric(BUSINESS_METRICS.paymentsConfirmed, { method: 'card' });
    return {
      ...seeOther(callbackRedirect({ ...checkout, status: 'PAID' })),
      writes: payment.writes,
      // Not recorded (the checkout was paid meanwhile, or the commit failed): no charge without its invoice.
      compensate: () => voidCheckoutCardUnlessRecorded(runtime, reference, invoiceReference, authorization.transactionId),
    };
  },
  { errorPage: checkoutErrorPage },
);

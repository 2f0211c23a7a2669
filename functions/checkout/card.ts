import { checkoutCardRefusal, payCheckoutByCard } from '../../shared/app/checkout/pay-checkout-by-card';
import { parseCardForm } from '../../shared/pages/checkout/card-form';
import { callbackRedirect, cookieValue, CSRF_COOKIE, csrfTokenMatches } from '../../shared/checkout/record';
import { BadRequestError, DomainError } from '../../shared/domain/errors';
import { checkoutErrorPage, formBody, isFormPost, seeOther } from '../../shared/http/checkout/browser';
import { checkoutOfLink } from '../../shared/http/checkout/link';
import { CHECKOUT_MAX_INSTALLMENTS, openCheckoutPage } from '../../shared/http/checkout/page-answer';
import { httpHandler } from '../../shared/http/pipeline';
import { checkoutRoutes as routes } from '../../shared/http/route-table/checkout';
import { checkoutCardChanges, checkoutCardPorts } from '../../shared/wiring/checkout';

const DECLINED = 'Pagamento recusado pelo emissor do cartão. Confira os dados ou use outro cartão.';
const CHECKING = 'Não recebemos a resposta da operadora do cartão. Estamos verificando o pagamento: não pague de novo agora; esta página se atualiza sozinha.';
const RETRY = 'Não foi possível concluir o pagamento. Tente novamente.';
const CARD_TOO_MANY_DECLINES = 'Não é possível pagar com este cartão agora: houve tentativas recusadas demais. Pague com Pix ou tente mais tarde.';

/**
 * POST /checkout/{reference}/{token}/card: the checkout page's card form. Checks the link, the CSRF
 * token against the page's cookie (403) and the fields (the page again, 422); then pays through
 * shared/app/checkout/pay-checkout-by-card.ts. Approved: 303 to callback_url (a checkout paid meanwhile
 * voids the authorization). Declined: the page again (400), next attempt. No answer: the checkout is
 * UNKNOWN until the provider tells (the upkeep asks it); the page says so (502).
 */
export const handler = httpHandler(
  routes.checkoutCard,
  async ({ params, event, runtime, now }) => {
    const checkout = await checkoutOfLink(runtime, params);
    if (checkout.status === 'PAID') return seeOther(callbackRedirect(checkout));
    if (checkout.status === 'ABANDONED') throw new DomainError('gone', 'Este pagamento expirou. Volte à loja para começar de novo.', 'checkout_abandoned');
    const { reference } = checkout;
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
    const ports = checkoutCardPorts(runtime, routes.checkoutCard);
    if (await checkoutCardRefusal(ports, checkout)) return openCheckoutPage(runtime, checkout, event.cookies, 400);
    const parsed = parseCardForm(fields, now, CHECKOUT_MAX_INSTALLMENTS);
    if (!parsed.ok) return openCheckoutPage(runtime, checkout, event.cookies, 422, { values: parsed.values, fieldErrors: parsed.fieldErrors });
    const { card, values } = parsed;
    const outcome = await payCheckoutByCard(ports, checkout, card, now);
    switch (outcome.kind) {
      case 'declines_locked': {
        const page = await openCheckoutPage(runtime, checkout, event.cookies, 429, { values, notice: { kind: 'error', message: CARD_TOO_MANY_DECLINES } });
        return { ...page, headers: { ...page.headers, 'Retry-After': String(outcome.retryAfterSeconds) } };
      }
      case 'checkout_locked':
        // The checkout's log is full (declines and lost answers): the page again, its card form locked.
        return openCheckoutPage(runtime, checkout, event.cookies, 400, { locked: true });
      case 'lost': {
        const page = await openCheckoutPage(runtime, { ...checkout, status: 'UNKNOWN' }, event.cookies, 502, {
          values,
          notice: { kind: 'unknown', message: CHECKING },
        });
        return { ...page, changes: outcome.changes };
      }
      case 'declined':
      case 'failed': {
        const notice = outcome.kind === 'declined' ? { kind: 'declined' as const, message: DECLINED } : { kind: 'error' as const, message: RETRY };
        const page = await openCheckoutPage(runtime, { ...checkout, status: 'PENDING' }, event.cookies, 400, { values, notice });
        return { ...page, changes: outcome.changes };
      }
      case 'paid':
        return { ...seeOther(callbackRedirect({ ...checkout, status: 'PAID' })), changes: outcome.changes, compensate: outcome.compensate };
    }
  },
  { errorPage: checkoutErrorPage, changes: checkoutCardChanges },
);

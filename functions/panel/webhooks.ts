import { isWrongCode, WRONG_CODE } from '../../shared/app/panel/sign-in';
import {
  configureWebhookInPanel,
  type PanelWebhookPorts,
  redeliverWebhookInPanel,
  rotateWebhookSecretInPanel,
  sendTestEventInPanel,
  webhookView,
} from '../../shared/app/panel/webhook-settings';
import { DomainError, RedeliveryRefusedError, ValidationError } from '../../shared/domain/errors';
import { field, pageAnswer } from '../../shared/http/panel/answers';
import { type SignedIn, signedInForm, signedInPage } from '../../shared/http/panel/signed-in';
import { routeGroupHandler } from '../../shared/http/route-group';
import { panelWebhookRoutes as routes } from '../../shared/http/route-table/panel-webhooks';
import { webhookSecretPage, webhooksPage } from '../../shared/pages/panel/pages';
import { panelWebhookChanges, panelWebhookPorts } from '../../shared/wiring/panel-webhooks';

/**
 * The merchant panel's webhook (issue 27), one function: the URL and its signing secret (step-up), a
 * test ping, the latest deliveries and a redelivery of one event. Not signed in: 303 to the sign-in page.
 */

/** A webhook form refused for its code or its URL: the page again, saying why (nothing changed). */
async function refusedWebhookForm(ports: PanelWebhookPorts, err: unknown, page: SignedIn, url: string | undefined) {
  const view = { ...(await webhookView(ports, page.session)), ...(url !== undefined ? { url } : {}) };
  if (isWrongCode(err)) return pageAnswer(401, webhooksPage({ ...view, message: WRONG_CODE }, page.chrome));
  if (err instanceof ValidationError) return pageAnswer(422, webhooksPage({ ...view, errors: err.fields }, page.chrome));
  throw err;
}

const setWebhook = signedInForm(
  routes.panelSetWebhook,
  panelWebhookPorts,
  async ({ ports, page, fields, ip, now }) => {
    const url = field(fields, 'url', 2048);
    try {
      const { answer, changes } = await configureWebhookInPanel(ports, { session: page.session, url, code: field(fields, 'code', 16), ip, now });
      return {
        ...pageAnswer(
          200,
          webhookSecretPage({ url: answer.url, ...(answer.secret ? { secret: answer.secret } : {}), notice: answer.secret_notice }, page.chrome),
        ),
        changes,
      };
    } catch (err) {
      return refusedWebhookForm(ports, err, page, url);
    }
  },
  panelWebhookChanges,
);

const rotateWebhookSecret = signedInForm(
  routes.panelRotateWebhookSecret,
  panelWebhookPorts,
  async ({ ports, page, fields, ip, now }) => {
    try {
      const { answer, changes } = await rotateWebhookSecretInPanel(ports, { session: page.session, code: field(fields, 'code', 16), ip, now });
      return { ...pageAnswer(200, webhookSecretPage({ secret: answer.secret, notice: answer.secret_notice }, page.chrome)), changes };
    } catch (err) {
      return refusedWebhookForm(ports, err, page, undefined);
    }
  },
  panelWebhookChanges,
);

const testWebhook = signedInForm(
  routes.panelTestWebhook,
  panelWebhookPorts,
  async ({ ports, page, ip, now }) => {
    try {
      const { answer, changes } = await sendTestEventInPanel(ports, { session: page.session, ip, now });
      const notice = `Evento de teste ${answer.event_id} na fila: acompanhe a entrega abaixo.`;
      return { ...pageAnswer(200, webhooksPage({ ...(await webhookView(ports, page.session)), notice }, page.chrome)), changes };
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'conflict') {
        return pageAnswer(
          409,
          webhooksPage({ ...(await webhookView(ports, page.session)), message: 'Configure a URL do webhook antes de enviar um teste.' }, page.chrome),
        );
      }
      throw err;
    }
  },
  panelWebhookChanges,
);

/** The answer of a refused redelivery: the webhook page saying why (nothing changed). */
const REDELIVERY_REFUSED: Record<string, string> = {
  event_not_found: 'Este evento não é desta conta.',
  webhook_not_configured: 'Configure a URL do webhook antes de reenviar um evento.',
  delivery_running: 'A entrega deste evento ainda está em andamento: reenvie quando ela terminar.',
  delivery_changed: 'A entrega deste evento mudou enquanto o pedido corria: tente de novo.',
};

const redeliverWebhook = signedInForm(
  routes.panelRedeliverWebhook,
  panelWebhookPorts,
  async ({ ports, page, fields, ip, now }) => {
    try {
      const { answer, changes } = await redeliverWebhookInPanel(ports, { session: page.session, eventId: field(fields, 'event', 128), ip, now });
      const notice = `Reenvio do evento ${answer.event_id} na fila: acompanhe a entrega abaixo.`;
      return { ...pageAnswer(200, webhooksPage({ ...(await webhookView(ports, page.session)), notice }, page.chrome)), changes };
    } catch (err) {
      if (err instanceof RedeliveryRefusedError) {
        const status = err.kind === 'not_found' ? 404 : 409;
        return pageAnswer(
          status,
          webhooksPage({ ...(await webhookView(ports, page.session)), message: REDELIVERY_REFUSED[err.code ?? ''] ?? err.message }, page.chrome),
        );
      }
      throw err;
    }
  },
  panelWebhookChanges,
);

export const handler = routeGroupHandler([
  [
    routes.panelWebhooksPage,
    signedInPage(routes.panelWebhooksPage, panelWebhookPorts, async (ports, page) => webhooksPage(await webhookView(ports, page.session), page.chrome)),
  ],
  [routes.panelSetWebhook, setWebhook],
  [routes.panelRotateWebhookSecret, rotateWebhookSecret],
  [routes.panelTestWebhook, testWebhook],
  [routes.panelRedeliverWebhook, redeliverWebhook],
]);

import { auditView, keysView, rotateKeysInPanel } from '../../shared/app/panel/keys';
import { WRONG_CODE } from '../../shared/app/panel/sign-in';
import { configureWebhookInPanel, type PanelWebhookPorts, rotateWebhookSecretInPanel, webhookView } from '../../shared/app/panel/webhook-settings';
import { UnauthorizedError, ValidationError } from '../../shared/errors';
import { field, pageAnswer } from '../../shared/http/panel/answers';
import { type SignedIn, signedInForm, signedInPage } from '../../shared/http/panel/signed-in';
import { routeGroupHandler } from '../../shared/http/route-group';
import { panelRoutes as routes } from '../../shared/http/route-table/panel';
import { auditPage, keysPage, newKeysPage, webhookSecretPage, webhooksPage } from '../../shared/panel/pages';
import { panelKeysPorts, panelWebhookChanges, panelWebhookPorts } from '../../shared/wiring/panel-settings';

/**
 * The merchant panel's settings (issue 27), one function: the API keys, the webhook, the audit log.
 * Not signed in: 303 to the sign-in page. Every change asks a fresh authenticator code (step-up).
 */

const isWrongCode = (err: unknown) => err instanceof UnauthorizedError && err.message === WRONG_CODE;

const rotateKeys = signedInForm(routes.panelRotateKeys, panelKeysPorts, async ({ ports, page, fields, ip, now }) => {
  try {
    return pageAnswer(200, newKeysPage(await rotateKeysInPanel(ports, { session: page.session, code: field(fields, 'code', 16), ip, now }), page.chrome));
  } catch (err) {
    if (isWrongCode(err)) return pageAnswer(401, keysPage({ ...(await keysView(ports, page.session)), message: WRONG_CODE }, page.chrome));
    throw err;
  }
});

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
      return { ...pageAnswer(200, webhookSecretPage({ url: answer.url, ...(answer.secret ? { secret: answer.secret } : {}), notice: answer.secret_notice }, page.chrome)), changes };
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

export const handler = routeGroupHandler([
  [routes.panelKeysPage, signedInPage(routes.panelKeysPage, panelKeysPorts, async (ports, page) => keysPage(await keysView(ports, page.session), page.chrome))],
  [routes.panelRotateKeys, rotateKeys],
  [routes.panelWebhooksPage, signedInPage(routes.panelWebhooksPage, panelWebhookPorts, async (ports, page) => webhooksPage(await webhookView(ports, page.session), page.chrome))],
  [routes.panelSetWebhook, setWebhook],
  [routes.panelRotateWebhookSecret, rotateWebhookSecret],
  [routes.panelAuditLog, signedInPage(routes.panelAuditLog, panelKeysPorts, async (ports, page) => auditPage(await auditView(ports, page.session), page.chrome))],
]);

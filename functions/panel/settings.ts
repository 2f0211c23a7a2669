import { auditView, keysView, rotateKeysInPanel } from '../../shared/app/panel/keys';
import { WRONG_CODE } from '../../shared/app/panel/sign-in';
import { configureWebhookInPanel, type PanelWebhookPorts, rotateWebhookSecretInPanel, webhookView } from '../../shared/app/panel/webhook-settings';
import type { PanelSession } from '../../shared/domain/panel/session';
import { UnauthorizedError, ValidationError } from '../../shared/errors';
import { clientIp, field, pageAnswer, panelErrorAnswerPage, panelForm, redirectTo } from '../../shared/http/panel/answers';
import { panelCookie, SESSION_COOKIE } from '../../shared/http/panel/cookies';
import { signedIn } from '../../shared/http/panel/signed-in';
import { httpHandler } from '../../shared/http/pipeline';
import { routeGroupHandler } from '../../shared/http/route-group';
import { panelRoutes as routes } from '../../shared/http/route-table/panel';
import { auditPage, keysPage, newKeysPage, type SignedInChrome, webhookSecretPage, webhooksPage } from '../../shared/panel/pages';
import { panelKeysPorts, panelWebhookChanges, panelWebhookPorts } from '../../shared/wiring/panel';

/** The merchant panel's settings (issue 27), one function: the API keys and the audit log. Not signed in: 303 to the sign-in page. */
const options = { errorPage: panelErrorAnswerPage };

const keysPageHandler = httpHandler(
  routes.panelKeysPage,
  async ({ event, runtime, now }) => {
    const ports = await panelKeysPorts(runtime);
    const page = await signedIn(event, runtime, ports, now);
    if (!page) return redirectTo('/panel/entrar');
    return pageAnswer(200, keysPage(await keysView(ports, page.session), page.chrome));
  },
  options,
);

const rotateKeysHandler = httpHandler(
  routes.panelRotateKeys,
  async ({ event, runtime, now }) => {
    const { panel } = await runtime.serviceKeys();
    const cookie = panelCookie(event.cookies, SESSION_COOKIE);
    const fields = panelForm(event, panel, cookie);
    const ports = await panelKeysPorts(runtime);
    const page = await signedIn(event, runtime, ports, now);
    if (!page) return redirectTo('/panel/entrar');
    const { session, chrome } = page;
    try {
      const issued = await rotateKeysInPanel(ports, { session, code: field(fields, 'code', 16), ip: clientIp(event), now });
      return pageAnswer(200, newKeysPage(issued, chrome));
    } catch (err) {
      if (err instanceof UnauthorizedError && err.message === WRONG_CODE) return pageAnswer(401, keysPage({ ...(await keysView(ports, session)), message: WRONG_CODE }, chrome));
      throw err;
    }
  },
  options,
);

const auditHandler = httpHandler(
  routes.panelAuditLog,
  async ({ event, runtime, now }) => {
    const ports = await panelKeysPorts(runtime);
    const page = await signedIn(event, runtime, ports, now);
    if (!page) return redirectTo('/panel/entrar');
    return pageAnswer(200, auditPage(await auditView(ports, page.session), page.chrome));
  },
  options,
);

const webhooksPageHandler = httpHandler(
  routes.panelWebhooksPage,
  async ({ event, runtime, now }) => {
    const ports = await panelWebhookPorts(runtime);
    const page = await signedIn(event, runtime, ports, now);
    if (!page) return redirectTo('/panel/entrar');
    return pageAnswer(200, webhooksPage(await webhookView(ports, page.session), page.chrome));
  },
  options,
);

/** A webhook form's answer when its code or fields are refused: the page again, saying why (nothing changed). */
async function refusedWebhookForm(ports: PanelWebhookPorts, err: unknown, session: PanelSession, chrome: SignedInChrome, url: string | undefined) {
  const view = await webhookView(ports, session);
  if (err instanceof UnauthorizedError && err.message === WRONG_CODE) return pageAnswer(401, webhooksPage({ ...view, ...(url !== undefined ? { url } : {}), message: WRONG_CODE }, chrome));
  if (err instanceof ValidationError) return pageAnswer(422, webhooksPage({ ...view, ...(url !== undefined ? { url } : {}), errors: err.fields }, chrome));
  throw err;
}

const setWebhookHandler = httpHandler(
  routes.panelSetWebhook,
  async ({ event, runtime, now }) => {
    const { panel } = await runtime.serviceKeys();
    const fields = panelForm(event, panel, panelCookie(event.cookies, SESSION_COOKIE));
    const ports = await panelWebhookPorts(runtime);
    const page = await signedIn(event, runtime, ports, now);
    if (!page) return redirectTo('/panel/entrar');
    const url = field(fields, 'url', 2048);
    try {
      const { answer, changes } = await configureWebhookInPanel(ports, { session: page.session, url, code: field(fields, 'code', 16), ip: clientIp(event), now });
      return { ...pageAnswer(200, webhookSecretPage({ url: answer.url, ...(answer.secret ? { secret: answer.secret } : {}), notice: answer.secret_notice }, page.chrome)), changes };
    } catch (err) {
      return refusedWebhookForm(ports, err, page.session, page.chrome, url);
    }
  },
  { ...options, changes: panelWebhookChanges },
);

const rotateWebhookSecretHandler = httpHandler(
  routes.panelRotateWebhookSecret,
  async ({ event, runtime, now }) => {
    const { panel } = await runtime.serviceKeys();
    const fields = panelForm(event, panel, panelCookie(event.cookies, SESSION_COOKIE));
    const ports = await panelWebhookPorts(runtime);
    const page = await signedIn(event, runtime, ports, now);
    if (!page) return redirectTo('/panel/entrar');
    try {
      const { answer, changes } = await rotateWebhookSecretInPanel(ports, { session: page.session, code: field(fields, 'code', 16), ip: clientIp(event), now });
      return { ...pageAnswer(200, webhookSecretPage({ secret: answer.secret, notice: answer.secret_notice }, page.chrome)), changes };
    } catch (err) {
      return refusedWebhookForm(ports, err, page.session, page.chrome, undefined);
    }
  },
  { ...options, changes: panelWebhookChanges },
);

export const handler = routeGroupHandler([
  [routes.panelKeysPage, keysPageHandler],
  [routes.panelWebhooksPage, webhooksPageHandler],
  [routes.panelSetWebhook, setWebhookHandler],
  [routes.panelRotateWebhookSecret, rotateWebhookSecretHandler],
  [routes.panelRotateKeys, rotateKeysHandler],
  [routes.panelAuditLog, auditHandler],
]);

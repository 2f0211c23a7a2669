import { auditView, keysView, rotateKeysInPanel } from '../../shared/app/panel/keys';
import { WRONG_CODE } from '../../shared/app/panel/sign-in';
import { UnauthorizedError } from '../../shared/errors';
import { clientIp, field, pageAnswer, panelErrorAnswerPage, panelForm, redirectTo } from '../../shared/http/panel/answers';
import { panelCookie, SESSION_COOKIE } from '../../shared/http/panel/cookies';
import { signedIn } from '../../shared/http/panel/signed-in';
import { httpHandler } from '../../shared/http/pipeline';
import { routeGroupHandler } from '../../shared/http/route-group';
import { panelRoutes as routes } from '../../shared/http/route-table/panel';
import { auditPage, keysPage, newKeysPage } from '../../shared/panel/pages';
import { panelKeysPorts } from '../../shared/wiring/panel';

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

export const handler = routeGroupHandler([
  [routes.panelKeysPage, keysPageHandler],
  [routes.panelRotateKeys, rotateKeysHandler],
  [routes.panelAuditLog, auditHandler],
]);

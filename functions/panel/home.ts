import { panelOverview } from '../../shared/app/panel/overview';
import { signedInSession } from '../../shared/app/panel/sign-in';
import { pageAnswer, panelErrorAnswerPage, redirectTo } from '../../shared/http/panel/answers';
import { csrfTokenFor, panelCookie, SESSION_COOKIE } from '../../shared/http/panel/cookies';
import { httpHandler } from '../../shared/http/pipeline';
import { routeGroupHandler } from '../../shared/http/route-group';
import { panelRoutes as routes } from '../../shared/http/route-table/panel';
import { overviewPage } from '../../shared/panel/pages';
import { panelAccessPorts, panelOverviewPorts } from '../../shared/wiring/panel';

/** The merchant panel's signed-in pages (issue 27), one function: the overview so far. Not signed in: 303 to the sign-in page. */
const overviewHandler = httpHandler(
  routes.panelOverview,
  async ({ event, runtime, now }) => {
    const ports = await panelAccessPorts(runtime);
    const cookie = panelCookie(event.cookies, SESSION_COOKIE);
    const session = await signedInSession(ports, cookie, now);
    if (!session || cookie === undefined) return redirectTo('/panel/entrar');
    const view = await panelOverview(panelOverviewPorts(runtime), session);
    const { panel } = await runtime.serviceKeys();
    return pageAnswer(200, overviewPage(view, { email: session.email, csrfToken: csrfTokenFor(panel, cookie) }));
  },
  { errorPage: panelErrorAnswerPage },
);

export const handler = routeGroupHandler([[routes.panelOverview, overviewHandler]]);

import { panelOverview } from '../../shared/app/panel/overview';
import { pageAnswer, panelErrorAnswerPage, redirectTo } from '../../shared/http/panel/answers';
import { signedIn } from '../../shared/http/panel/signed-in';
import { httpHandler } from '../../shared/http/pipeline';
import { routeGroupHandler } from '../../shared/http/route-group';
import { panelRoutes as routes } from '../../shared/http/route-table/panel';
import { overviewPage } from '../../shared/panel/pages';
import { panelAccessPorts, panelOverviewPorts } from '../../shared/wiring/panel';

/** The merchant panel's signed-in pages (issue 27), one function: the overview so far. Not signed in: 303 to the sign-in page. */
const overviewHandler = httpHandler(
  routes.panelOverview,
  async ({ event, runtime, now }) => {
    const page = await signedIn(event, runtime, await panelAccessPorts(runtime), now);
    if (!page) return redirectTo('/panel/entrar');
    return pageAnswer(200, overviewPage(await panelOverview(panelOverviewPorts(runtime), page.session), page.chrome));
  },
  { errorPage: panelErrorAnswerPage },
);

export const handler = routeGroupHandler([[routes.panelOverview, overviewHandler]]);

import { customerDetail, customersView, methodsView } from '../../shared/app/panel/account-pages';
import { panelOverview } from '../../shared/app/panel/overview';
import { signedInPage } from '../../shared/http/panel/signed-in';
import { routeGroupHandler } from '../../shared/http/route-group';
import { panelHomeRoutes as routes } from '../../shared/http/route-table/panel-home';
import { customerPage, customersPage, methodsPage, overviewPage } from '../../shared/pages/panel/pages';
import { panelAccessPorts } from '../../shared/wiring/panel-access';
import { panelAccountPorts, panelOverviewPorts } from '../../shared/wiring/panel-home';

/** The merchant panel's signed-in reading pages (issue 27), one function: the overview, the customers, the payment methods. Not signed in: 303 to the sign-in page. */
const customerDetailPage = signedInPage(routes.panelCustomer, panelAccountPorts, async (ports, page, { params }) =>
  customerPage(await customerDetail(ports, page.session, /^\d{1,15}$/.test(params.id) ? Number(params.id) : 0), page.chrome),
);

export const handler = routeGroupHandler([
  [routes.panelCustomer, customerDetailPage],
  [
    routes.panelOverview,
    signedInPage(routes.panelOverview, panelAccessPorts, async (_ports, page, { runtime }) =>
      overviewPage(await panelOverview(panelOverviewPorts(runtime), page.session, new Date()), page.chrome),
    ),
  ],
  [
    routes.panelCustomers,
    signedInPage(routes.panelCustomers, panelAccountPorts, async (ports, page, { query }) => {
      // The query the pipeline validated (a 422 page otherwise).
      const { page: number, limit, ...filters } = query;
      const rows = await customersView(ports, page.session, { page: number, limit, filters });
      return customersPage(
        rows,
        { page: number, ...(filters.name ? { name: filters.name } : {}), ...(filters.email ? { email: filters.email } : {}) },
        page.chrome,
      );
    }),
  ],
  [
    routes.panelMethods,
    signedInPage(routes.panelMethods, panelAccountPorts, async (ports, page) => methodsPage(await methodsView(ports, page.session), page.chrome)),
  ],
]);

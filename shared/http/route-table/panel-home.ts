/** The merchant panel's reading pages (functions/panel/home.ts): the overview, the customers, the payment methods. */
import { defineRoute, type AnyRoute } from '../route';
import * as z from 'zod';
import { HTML, notSignedIn, page, panelBrowser } from './panel-common';
import { listCustomersQuerySchema } from '../../domain/schemas/customer-query';

const HOME = { fn: 'PanelHome', handler: 'functions/panel/home.ts' } as const;

export const panelHomeRoutes = {
  panelOverview: defineRoute({
    id: 'PanelOverview',
    ...HOME,
    method: 'GET',
    path: '/panel',
    ...panelBrowser,
    access: 'write',
    summary: 'The panel’s overview: balance available and reserved',
    request: {},
    responses: { ...page('HTML page'), ...notSignedIn },
  }),
  panelCustomers: defineRoute({
    id: 'PanelCustomers',
    ...HOME,
    method: 'GET',
    path: '/panel/clientes',
    ...panelBrowser,
    access: 'write',
    summary: 'The account’s customers, newest first, with GET /api/customers’ filters and pages',
    request: { query: listCustomersQuerySchema },
    responses: { ...page('HTML page'), ...notSignedIn },
  }),
  panelMethods: defineRoute({
    id: 'PanelMethods',
    ...HOME,
    method: 'GET',
    path: '/panel/metodos',
    ...panelBrowser,
    access: 'write',
    summary: 'The payment methods enabled for the account (enabling stays with the operator)',
    request: {},
    responses: { ...page('HTML page'), ...notSignedIn },
  }),
  panelCustomer: defineRoute({
    id: 'PanelCustomer',
    ...HOME,
    method: 'GET',
    path: '/panel/clientes/{id}',
    ...panelBrowser,
    access: 'write',
    summary: 'One customer of the account, as GET /api/customer/{id} reads it',
    request: { params: z.object({ id: z.string().max(20) }) },
    responses: { ...page('HTML page'), ...notSignedIn, 404: { description: 'Unknown, or of another account', contentType: HTML } },
  }),
} satisfies Record<string, AnyRoute>;

/**
 * THE route table: the single source of truth read by the CDK stack (one Lambda and one API Gateway
 * route per row), the local HTTP server and the OpenAPI generator. Adding an endpoint = one row here
 * plus one handler file under functions/. Rows live per area in shared/http/route-table/ so a
 * handler bundles only its own area's schemas; this module assembles them, in routing order.
 */
import type { AnyRoute, RawRequest } from './route';
import { simulatedNotificationSchema } from '../wiring/provider-notifications';
import { pixCallbackSchema } from '../wiring/pix-callbacks';
import { authRoutes } from './route-table/auth';
import { accountRoutes } from './route-table/account';
import { customersRoutes } from './route-table/customers';
import { referenceRoutes } from './route-table/reference';
import { chargesRoutes, methodChargeRoutes } from './route-table/charges';
import { invoicesRoutes } from './route-table/invoices';
import { pixoutRoutes } from './route-table/pixout';
import { webhooksRoutes } from './route-table/webhooks';
import { eventsRoutes } from './route-table/events';
import { providerRoutes } from './route-table/provider';
import { boletoRoutes } from './route-table/boleto';
import { checkoutRoutes } from './route-table/checkout';
import { metaRoutes } from './route-table/meta';
import { panelRoutes } from './route-table/panel';

export const routes = {
  ...authRoutes,
  ...accountRoutes,
  ...customersRoutes,
  ...referenceRoutes,
  ...chargesRoutes,
  ...invoicesRoutes,
  ...pixoutRoutes,
  ...webhooksRoutes,
  ...eventsRoutes,
  ...providerRoutes,
  ...boletoRoutes,
  ...checkoutRoutes,
  ...panelRoutes,
  ...metaRoutes,
} satisfies Record<string, AnyRoute>;

/** Every route: the table's rows, then the charge routes derived from the method rows (shared/http/route-table/charges.ts). */
export const routeList: readonly AnyRoute[] = [...Object.values(routes), ...Object.values(methodChargeRoutes)];

export { simulatedNotificationSchema };

/** Bodies their implementation reads raw (to check a signature over the exact bytes), by route id: documented only. */
export const RAW_REQUESTS: Readonly<Record<string, RawRequest>> = {
  [routes.providerNotification.id]: {
    mediaType: 'application/json',
    schema: simulatedNotificationSchema,
    description: "The provider's notification, signed in the Simulated-Signature header over the raw body.",
    security: 'simulatedSignature',
  },
  [routes.providerPixCallback.id]: {
    mediaType: 'application/json',
    schema: pixCallbackSchema,
    description:
      "The API Pix callback as the PSP sends it (bacen/pix-api, webhook `/pix`); read raw and checked against the PSP itself (GET /cob/{txid}) before anything moves. Authenticated by the path token the gateway registered (the standard's mutual TLS ends at the edge).",
  },
};

/** Answers every request no route matches: 404, or 405 on a known path with another method. */
export const fallbackHandler = 'functions/meta/not-found.ts';

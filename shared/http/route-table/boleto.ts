/** The route table's rows for functions/boleto/ (shared/http/routes.ts assembles the table). */
import { defineRoute, type AnyRoute } from '../route';
import { boletoPageParamsSchema } from '../../domain/schemas/provider';
import { HTML } from './policies';

export const boletoRoutes = {
  boletoPage: defineRoute({
    id: 'BoletoPage',
    method: 'GET',
    path: '/boleto/{reference}/{token}',
    handler: 'functions/boleto/page.ts',
    auth: 'none',
    rateLimit: 'none',
    access: 'read',
    idempotency: 'none',
    usesMasterKey: true,
    tag: 'Charges',
    summary: 'The printable boleto page (the link in a boleto charge)',
    request: { params: boletoPageParamsSchema },
    responses: { 200: { description: 'HTML page', contentType: HTML }, 404: { description: 'Unknown boleto or wrong link' } },
  }),
} satisfies Record<string, AnyRoute>;

/** The route table's rows for functions/meta/ (shared/http/routes.ts assembles the table). */
import { defineRoute, type AnyRoute } from '../route';

export const metaRoutes = {
  openApiDocument: defineRoute({
    id: 'OpenApiDocument',
    method: 'GET',
    path: '/developers/openapi.yaml',
    handler: 'functions/meta/openapi.ts',
    auth: 'none',
    rateLimit: 'none',
    access: 'none',
    idempotency: 'none',
    tag: 'Meta',
    summary: 'This OpenAPI document',
    request: {},
    responses: {
      200: { description: 'The OpenAPI 3.1 document in YAML', contentType: 'application/yaml; charset=utf-8' },
    },
  }),
} satisfies Record<string, AnyRoute>;

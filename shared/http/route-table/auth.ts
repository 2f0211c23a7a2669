/** The route table's rows for functions/auth/ (shared/http/routes.ts assembles the table). */
import { defineRoute, type AnyRoute } from '../route';
import { authTokenResponseSchema } from '../../domain/schemas/auth';

export const authRoutes = {
  authToken: defineRoute({
    id: 'AuthToken',
    method: 'POST',
    path: '/api/auth',
    handler: 'functions/auth/token.ts',
    auth: 'basic',
    rateLimit: 'auth',
    access: 'read',
    idempotency: 'none',
    tag: 'Authentication',
    summary: 'Exchange the public and secret keys for a Bearer token',
    description: 'Send `Authorization: Basic base64(<public_key>:<secret_key>)` and no body. Limited to 10 calls per minute per IP.',
    request: {},
    responses: {
      200: { description: 'A Bearer token', schema: authTokenResponseSchema },
    },
  }),
} satisfies Record<string, AnyRoute>;

/**
 * THE route table: the single source of truth read by the CDK stack (one Lambda and one API Gateway
 * route per row), the local HTTP server and the OpenAPI generator. Adding an endpoint = one row here
 * plus one handler file under functions/.
 */
import { defineRoute, type AnyRoute } from './http/route';
import { authTokenResponseSchema } from './schemas/auth';
import { balanceResponseSchema } from './schemas/balance';

export const routes = {
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
  balance: defineRoute({
    id: 'GetBalance',
    method: 'GET',
    path: '/api/balance',
    handler: 'functions/account/balance.ts',
    auth: 'bearer',
    rateLimit: 'account',
    access: 'read',
    idempotency: 'none',
    tag: 'Account',
    summary: "The account's available balance",
    description: 'Not in the published reference: added so a merchant can see what a Pix withdrawal may spend (docs/decisions.md).',
    request: {},
    responses: {
      200: { description: 'The available balance', schema: balanceResponseSchema },
    },
  }),
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
      200: { description: 'The OpenAPI 3.1 document in YAML', contentType: 'application/yaml' },
    },
  }),
} satisfies Record<string, AnyRoute>;

export const routeList: readonly AnyRoute[] = Object.values(routes);

/** Answers every request no route matches: 404, or 405 on a known path with another method. */
export const fallbackHandler = 'functions/meta/not-found.ts';

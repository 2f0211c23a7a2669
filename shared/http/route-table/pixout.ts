/** The route table's rows for functions/pixout/ (shared/http/routes.ts assembles the table). */
import { defineRoute, type AnyRoute } from '../route';
import {
  createWithdrawBodySchema,
  listWithdrawalsQuerySchema,
  withdrawCreatedSchema,
  withdrawListSchema,
  withdrawParamsSchema,
  withdrawResponseSchema,
} from '../../domain/schemas/withdraw';
import { bearerRead, bearerWrite } from './policies';

export const pixoutRoutes = {
  createWithdraw: defineRoute({
    id: 'CreateWithdraw',
    changes: ['withdrawal.created', 'ledger.transfer'],
    method: 'POST',
    path: '/api/pixout/create',
    handler: 'functions/pixout/create.ts',
    ...bearerWrite,
    idempotency: 'required',
    retryOnIdClash: true,
    tag: 'Withdrawals',
    summary: 'Pay out to a Pix key (amount + fee reserved at once)',
    description:
      'Idempotency-Key is required. The amount plus the account fee is reserved atomically; insufficient balance → 400 and nothing changes. The bank is asked after the reservation; its outcome makes the withdraw PAID or CANCELED (value returned).',
    request: { body: createWithdrawBodySchema },
    responses: { 200: { description: 'The withdraw (PENDING)', schema: withdrawCreatedSchema } },
  }),
  getWithdraw: defineRoute({
    id: 'GetWithdraw',
    method: 'GET',
    path: '/api/pixout/withdraw/{txid}',
    handler: 'functions/pixout/get.ts',
    ...bearerRead,
    tag: 'Withdrawals',
    summary: 'One withdraw by its reference',
    request: { params: withdrawParamsSchema },
    responses: { 200: { description: 'The withdraw', schema: withdrawResponseSchema }, 404: { description: 'Unknown, or of another account' } },
  }),
  listWithdrawals: defineRoute({
    id: 'ListWithdrawals',
    method: 'GET',
    path: '/api/pixout/list',
    handler: 'functions/pixout/list.ts',
    ...bearerRead,
    badQueryStatus: 400,
    tag: 'Withdrawals',
    summary: "The caller's withdrawals, newest first, 25 a page",
    description: 'start and end are creation dates (YYYY-MM-DD, Brazil time, inclusive); a malformed filter answers 400.',
    request: { query: listWithdrawalsQuerySchema },
    responses: { 200: { description: 'A page of withdrawals', schema: withdrawListSchema } },
  }),
} satisfies Record<string, AnyRoute>;

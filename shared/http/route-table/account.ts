/** The route table's rows for functions/account/ (shared/http/routes.ts assembles the table). */
import { defineRoute, type AnyRoute } from '../route';
import { balanceResponseSchema } from '../../domain/schemas/balance';
import { balanceTransactionListSchema, listBalanceTransactionsQuerySchema } from '../../domain/schemas/ledger';
import { bearerRead } from './policies';

export const accountRoutes = {
  balance: defineRoute({
    id: 'GetBalance',
    method: 'GET',
    path: '/api/balance',
    handler: 'functions/account/balance.ts',
    ...bearerRead,
    tag: 'Account',
    summary: "The account's available and reserved balance",
    description:
      'Not in the published reference: added so a merchant can see what a Pix withdrawal may spend (docs/decisions.md). `reserved` (a compatible addition) is what withdrawals the bank has not answered yet hold: amount plus fee, outside `available`.',
    request: {},
    responses: {
      200: { description: 'The available and the reserved balance', schema: balanceResponseSchema },
    },
  }),
  balanceTransactions: defineRoute({
    id: 'ListBalanceTransactions',
    method: 'GET',
    path: '/api/balance/transactions',
    handler: 'functions/account/transactions.ts',
    ...bearerRead,
    tag: 'Account',
    summary: "The account's statement: every balance movement, newest first",
    description:
      'Not in the published reference: a compatible addition (docs/decisions.md). One immutable entry per movement (payment, refund, withdrawal, withdrawal_fee, withdrawal_posted, withdrawal_release, adjustment) with its signed amount and its signed reserved part; the available balance of GET /api/balance equals the sum of all amounts, its reserved balance the sum of the reserved parts (a withdrawal is held, then posted when paid or released when refused). type filters; start and end (YYYY-MM-DD, Brazil time, inclusive) may come alone; a malformed query answers 422.',
    request: { query: listBalanceTransactionsQuerySchema },
    responses: { 200: { description: 'A page of ledger entries', schema: balanceTransactionListSchema } },
  }),
} satisfies Record<string, AnyRoute>;

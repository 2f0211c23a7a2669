/** The merchant panel's money pages (functions/panel/money.ts): withdrawals, invoices, the statement. */
import * as z from 'zod';
import { defineRoute, type AnyRoute } from '../route';
import { csrf, CSV, HTML, notSignedIn, page, panelBrowser, stepUpFormAnswers } from './panel-common';
import { listWithdrawalsQuerySchema } from '../../domain/schemas/withdraw-query';
import { listInvoicesQuerySchema } from '../../domain/schemas/invoice-query';
import { listBalanceTransactionsQuerySchema } from '../../domain/schemas/ledger-query';

const MONEY = { fn: 'PanelMoney', handler: 'functions/panel/money.ts' } as const;

const invoicePageParams = z.object({ reference: z.string().max(40) });
const withdrawalPageParams = z.object({ reference: z.string().max(40) });

export const panelMoneyRoutes = {
  panelWithdrawals: defineRoute({
    id: 'PanelWithdrawals',
    ...MONEY,
    method: 'GET',
    path: '/panel/saques',
    ...panelBrowser,
    access: 'write',
    summary: 'The account’s withdrawals with GET /api/pixout/list’s filters and pages, and the new withdrawal form for the roles that may',
    request: { query: listWithdrawalsQuerySchema },
    responses: { ...page('HTML page'), ...notSignedIn },
  }),
  panelRequestWithdrawal: defineRoute({
    id: 'PanelRequestWithdrawal',
    ...MONEY,
    changes: ['withdrawal.created', 'ledger.transfer', 'panel.audited'],
    retryOnIdClash: true,
    method: 'POST',
    path: '/panel/saques',
    ...panelBrowser,
    access: 'write',
    summary: 'A new Pix withdrawal (step-up), through POST /api/pixout/create’s own use case',
    description:
      'Owners, admins and finance; a fresh authenticator code, used once: the same form posted twice gets one withdrawal. Amount + fee are reserved only if the available balance covers them (400 page otherwise, nothing changed); the bank is asked after the commit.',
    request: {
      form: z.object({
        csrf_token: csrf,
        amount: z.string().max(20).describe('R$, as 1.234,56 or 1234.56'),
        keytype: z.string().max(10),
        pixkey: z.string().max(140),
        description: z.string().max(140).optional(),
        code: z.string().max(16),
      }),
    },
    responses: {
      ...stepUpFormAnswers,
      303: { description: 'Reserved: to the withdrawal’s page (not signed in: to the sign-in page)', contentType: HTML },
      400: { description: 'The balance does not cover amount + fee, or not the page’s form', contentType: HTML },
      422: { description: 'A field is invalid (the page names it)', contentType: HTML },
    },
  }),
  panelWithdrawal: defineRoute({
    id: 'PanelWithdrawal',
    ...MONEY,
    method: 'GET',
    path: '/panel/saques/{reference}',
    ...panelBrowser,
    access: 'write',
    summary: 'One withdrawal of the account',
    request: { params: withdrawalPageParams, query: z.object({ novo: z.enum(['1']).optional().describe('Just asked: the page says so') }) },
    responses: { ...page('HTML page'), ...notSignedIn, 404: { description: 'Unknown, or of another account', contentType: HTML } },
  }),
  panelInvoices: defineRoute({
    id: 'PanelInvoices',
    ...MONEY,
    method: 'GET',
    path: '/panel/faturas',
    ...panelBrowser,
    access: 'write',
    summary: 'The account’s invoices with GET /api/invoices’ filters and pages',
    request: { query: listInvoicesQuerySchema },
    responses: { ...page('HTML page'), ...notSignedIn },
  }),
  panelInvoice: defineRoute({
    id: 'PanelInvoice',
    ...MONEY,
    method: 'GET',
    path: '/panel/faturas/{reference}',
    ...panelBrowser,
    access: 'write',
    summary: 'One invoice of the account, with the webhook events its changes recorded and their deliveries',
    request: { params: invoicePageParams },
    responses: { ...page('HTML page'), ...notSignedIn, 404: { description: 'Unknown, or of another account', contentType: HTML } },
  }),
  panelStatement: defineRoute({
    id: 'PanelStatement',
    ...MONEY,
    method: 'GET',
    path: '/panel/extrato',
    ...panelBrowser,
    access: 'write',
    summary: 'The account’s ledger with GET /api/balance/transactions’ filters and pages',
    request: { query: listBalanceTransactionsQuerySchema },
    responses: { ...page('HTML page'), ...notSignedIn },
  }),
  panelStatementCsv: defineRoute({
    id: 'PanelStatementCsv',
    ...MONEY,
    method: 'GET',
    path: '/panel/extrato/csv',
    ...panelBrowser,
    access: 'write',
    summary: 'The filtered range of the ledger as a CSV file (owners, admins and finance)',
    description: `RFC 4180, UTF-8, the API's values (dot decimals, UTC ISO times), newest first; at most 5,000 entries (a wider range: 422, narrow the dates or the type). Text cells a spreadsheet would run as a formula are prefixed with an apostrophe.`,
    request: { query: listBalanceTransactionsQuerySchema },
    responses: {
      200: { description: 'The CSV file (Content-Disposition: attachment)', contentType: CSV },
      ...notSignedIn,
      403: { description: 'The role may not export', contentType: HTML },
      422: { description: 'A filter is invalid, or the range holds more than 5,000 entries', contentType: HTML },
    },
  }),
} satisfies Record<string, AnyRoute>;

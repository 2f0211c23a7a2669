import { authorizeWithdrawal, type PanelWithdrawalPorts, requestWithdrawalInPanel, withdrawalsView, withdrawalView } from '../../shared/app/panel/withdrawals';
import { isWrongCode, WRONG_CODE } from '../../shared/app/panel/sign-in';
import { WITHDRAW_REFERENCE_SHAPE } from '../../shared/domain/withdrawal';
import { type FieldErrors, InsufficientBalanceError, NotFoundError, ValidationError } from '../../shared/domain/errors';
import { field, pageAnswer, redirectTo } from '../../shared/http/panel/answers';
import { onceForRequest } from '../../shared/http/panel/once-for-request';
import { centsFromFormAmount } from '../../shared/http/panel/form-money';
import { type SignedIn, signedInForm, signedInPage } from '../../shared/http/panel/signed-in';
import { routeGroupHandler } from '../../shared/http/route-group';
import { panelMoneyRoutes as routes } from '../../shared/http/route-table/panel-money';
import { collect } from '../../shared/http/validation';
import { invoicePage, invoicesPage, type NewWithdrawalForm, statementPage, withdrawalPage, withdrawalsPage } from '../../shared/pages/panel/money-pages';
import { panelHeaders } from '../../shared/pages/panel/page-kit';
import { statementCsv } from '../../shared/pages/panel/statement-csv';
import { invoiceDetail, invoicesView } from '../../shared/app/panel/invoices';
import { statementExport, statementView } from '../../shared/app/panel/statement';
import { REFERENCE_SHAPE } from '../../shared/domain/invoice-ids';
import { WITHDRAW_PAGE_SIZE } from '../../shared/ports/withdrawals';
import { createWithdrawBodySchema } from '../../shared/domain/schemas/withdraw';
import { panelInvoicePorts, panelStatementPorts, panelWithdrawalChanges, panelWithdrawalPorts } from '../../shared/wiring/panel-money';

/**
 * The merchant panel's money pages (issue 27), one function: the withdrawals (list, detail, a new one
 * with step-up), the invoices (list, detail with events and deliveries), the statement and its CSV
 * export. Not signed in: 303 to the sign-in page.
 */

const WITHDRAWAL_ASKED = 'Saque pedido: valor e tarifa estão reservados até o banco pagar ou recusar.';

const listPage = signedInPage(routes.panelWithdrawals, panelWithdrawalPorts, async (ports, page, { query }) =>
  withdrawalsPage({ ...(await withdrawalsView(ports, page.session, query)), pageSize: WITHDRAW_PAGE_SIZE }, query, page.chrome),
);

const detailPage = signedInPage(routes.panelWithdrawal, panelWithdrawalPorts, async (ports, page, { params, query }) => {
  if (!WITHDRAW_REFERENCE_SHAPE.test(params.reference)) throw new NotFoundError('Saque não encontrado.');
  return withdrawalPage(await withdrawalView(ports, page.session, params.reference), page.chrome, query.novo ? WITHDRAWAL_ASKED : undefined);
});

/** The new withdrawal form's fields as POST /api/pixout/create's body (its schema, its rules), or the fields' errors. */
function withdrawalBody(values: NewWithdrawalForm): { body?: ReturnType<typeof createWithdrawBodySchema.parse>; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const cents = centsFromFormAmount(values.amount ?? '');
  if (cents === undefined) errors.amount = ['Informe o valor em reais, como 150,00.'];
  const body = collect(
    createWithdrawBodySchema,
    { amount: (cents ?? 0) / 100, pixkey: values.pixkey, keytype: values.keytype, ...(values.description ? { description: values.description } : {}) },
    errors,
    'body',
  );
  return Object.keys(errors).length > 0 ? { errors } : { body, errors };
}

/** The withdrawals page again with the form as posted and why it was refused (nothing reserved). */
async function refusedWithdrawal(
  ports: PanelWithdrawalPorts,
  page: SignedIn,
  status: number,
  values: NewWithdrawalForm,
  refusal: { errors?: FieldErrors; message?: string },
) {
  const query = { page: 1 };
  const view = { ...(await withdrawalsView(ports, page.session, query)), pageSize: WITHDRAW_PAGE_SIZE };
  return pageAnswer(status, withdrawalsPage(view, query, page.chrome, { values, ...refusal }));
}

const requestWithdrawal = signedInForm(
  routes.panelRequestWithdrawal,
  panelWithdrawalPorts,
  async ({ ports, page, fields, ip, now, event }) => {
    const values: NewWithdrawalForm = {
      amount: field(fields, 'amount', 20),
      pixkey: field(fields, 'pixkey', 140),
      keytype: field(fields, 'keytype', 10),
      description: field(fields, 'description', 140),
    };
    const { body, errors } = withdrawalBody(values);
    if (!body) return refusedWithdrawal(ports, page, 422, values, { errors });
    try {
      // The code is checked and used once per request: a run again (a balance shard moved, an id drawn
      // twice) reuses this check instead of finding its own code used.
      const person = await onceForRequest(event, () => authorizeWithdrawal(ports, { session: page.session, code: field(fields, 'code', 16), ip, now }));
      const { answer, changes } = await requestWithdrawalInPanel(ports, person, {
        amountCents: centsFromFormAmount(values.amount ?? '') ?? 0,
        pixkey: body.pixkey,
        keytype: body.keytype,
        ...(body.description !== undefined ? { description: body.description } : {}),
        ip,
        now,
      });
      return { ...redirectTo(`/panel/saques/${answer.reference}?novo=1`), changes };
    } catch (err) {
      if (isWrongCode(err)) return refusedWithdrawal(ports, page, 401, values, { message: WRONG_CODE });
      if (err instanceof ValidationError) return refusedWithdrawal(ports, page, 422, values, { errors: err.fields });
      if (err instanceof InsufficientBalanceError) {
        return refusedWithdrawal(ports, page, 400, values, { message: 'Saldo disponível insuficiente para o valor mais a tarifa. Nada foi reservado.' });
      }
      throw err;
    }
  },
  panelWithdrawalChanges,
);

const invoicesList = signedInPage(routes.panelInvoices, panelInvoicePorts, async (ports, page, { query }) =>
  invoicesPage(await invoicesView(ports, page.session, query), query, page.chrome),
);

const invoiceDetailPage = signedInPage(routes.panelInvoice, panelInvoicePorts, async (ports, page, { params }) => {
  if (!REFERENCE_SHAPE.test(params.reference)) throw new NotFoundError('Fatura não encontrada.');
  const { invoice, events } = await invoiceDetail(ports, page.session, params.reference);
  return invoicePage(invoice, events, page.chrome);
});

const statement = signedInPage(routes.panelStatement, panelStatementPorts, async (ports, page, { query }) =>
  statementPage(await statementView(ports, page.session, query), query, page.chrome),
);

/** The filtered range as a CSV file: a download, never cached (the panel's headers), named for its dates. */
const statementCsvFile = signedInPage(routes.panelStatementCsv, panelStatementPorts, async (ports, page, { query }) => {
  const { type, start, end } = query;
  const entries = await statementExport(ports, page.session, { ...(type ? { type } : {}), ...(start ? { start } : {}), ...(end ? { end } : {}) });
  const name = `extrato${start ? `-${start}` : ''}${end ? `-a-${end}` : ''}.csv`;
  return {
    html: statementCsv(entries),
    headers: { ...panelHeaders(), 'Content-Disposition': `attachment; filename="${name}"` },
    contentType: 'text/csv; charset=utf-8',
  };
});

export const handler = routeGroupHandler([
  [routes.panelInvoices, invoicesList],
  [routes.panelInvoice, invoiceDetailPage],
  [routes.panelStatement, statement],
  [routes.panelStatementCsv, statementCsvFile],
  [routes.panelWithdrawals, listPage],
  [routes.panelRequestWithdrawal, requestWithdrawal],
  [routes.panelWithdrawal, detailPage],
]);

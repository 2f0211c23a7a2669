import { escapeHtml, formatBrl } from '../kit/html';
import { KEY_TYPES, type Withdrawal } from '../../domain/withdrawal';
import { CHARGE_LABELS } from '../../domain/payment-methods';
import { brazilTime, codeInput, csrfField, errorSummary, fieldError, type FieldErrors, layout, type PanelPage, type SignedInChrome } from './page-kit';

/** The merchant panel's money pages (issue 27), in pt-BR: withdrawals, invoices, the statement. */

const WITHDRAW_STATUS: Readonly<Record<string, string>> = { PENDING: 'Em processamento', PAID: 'Pago', CANCELED: 'Cancelado' };
const KEY_TYPE_LABELS: Readonly<Record<string, string>> = { CPF: 'CPF', CNPJ: 'CNPJ', EMAIL: 'E-mail', PHONE: 'Celular', EVP: 'Chave aleatória' };

/** A GET filter form's select, its current value kept. */
function select(id: string, name: string, label: string, options: readonly (readonly [string, string])[], current: string | undefined, attrs = ''): string {
  return `<label for="${id}">${escapeHtml(label)}</label>
<select id="${id}" name="${name}"${attrs}>${options.map(([value, text]) => `<option value="${escapeHtml(value)}"${value === (current ?? '') ? ' selected' : ''}>${escapeHtml(text)}</option>`).join('')}</select>`;
}

function dateInput(id: string, name: string, label: string, value: string | undefined): string {
  return `<label for="${id}">${escapeHtml(label)}</label>\n<input id="${id}" name="${name}" type="date" value="${escapeHtml(value ?? '')}">`;
}

/** A link to the next page of a filtered list, the filters kept. */
function nextPageLink(path: string, query: Readonly<Record<string, string | number | undefined>>, shown: number, pageSize: number): string {
  if (shown < pageSize) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '' && name !== 'page') params.set(name, String(value));
  params.set('page', String(Number(query.page ?? 1) + 1));
  return `<p><a href="${path}?${escapeHtml(params.toString())}">Próxima página</a></p>`;
}

export type WithdrawalsQuery = { page: number; start?: string; end?: string; status?: string };
export type NewWithdrawalForm = { amount?: string; pixkey?: string; keytype?: string; description?: string };

export function withdrawalsPage(
  view: { withdrawals: readonly Withdrawal[]; mayWithdraw: boolean; feeCents: number; pageSize: number },
  query: WithdrawalsQuery,
  chrome: SignedInChrome,
  form: { values?: NewWithdrawalForm; errors?: FieldErrors; message?: string } = {},
): PanelPage {
  const rows =
    view.withdrawals.length === 0
      ? '<p id="no-withdrawals">Nenhum saque encontrado.</p>'
      : `<div class="table-wrap" tabindex="0" role="region" aria-label="Saques"><table id="withdrawals">
<caption>Saques, os mais novos primeiro</caption>
<thead><tr><th scope="col">Referência</th><th scope="col">Criado em</th><th scope="col" class="num">Valor</th><th scope="col" class="num">Tarifa</th><th scope="col">Situação</th></tr></thead>
<tbody>
${view.withdrawals
  .map(
    (w) =>
      `<tr data-reference="${escapeHtml(w.reference)}"><td><a href="/panel/saques/${encodeURIComponent(w.reference)}">${escapeHtml(w.reference)}</a></td><td>${brazilTime(w.createdAt)}</td><td class="num">${formatBrl(w.amountCents)}</td><td class="num">${formatBrl(w.feeCents)}</td><td data-status="${w.status}">${escapeHtml(WITHDRAW_STATUS[w.status] ?? w.status)}</td></tr>`,
  )
  .join('\n')}
</tbody>
</table></div>`;
  const values = form.values ?? {};
  const amount = fieldError('amount', form.errors, 'amount');
  const pixkey = fieldError('pixkey', form.errors, 'pixkey');
  const keytype = fieldError('keytype', form.errors, 'keytype');
  const description = fieldError('description', form.errors, 'description');
  const newWithdrawal = view.mayWithdraw
    ? `<div class="box" id="new-withdrawal">
<h2>Novo saque Pix</h2>
${errorSummary(form.message, form.errors)}
<form method="post" action="/panel/saques" novalidate>
${csrfField(chrome.csrfToken)}
<label for="amount">Valor (R$)</label>
<input id="amount" name="amount" type="text" inputmode="decimal" maxlength="20" required value="${escapeHtml(values.amount ?? '')}" aria-describedby="amount-dica"${amount.attrs}>
<p class="hint" id="amount-dica">Tarifa por saque: ${formatBrl(view.feeCents)}, reservada junto com o valor.</p>${amount.html}
${select(
  'keytype',
  'keytype',
  'Tipo da chave Pix',
  KEY_TYPES.map((t) => [t, KEY_TYPE_LABELS[t] ?? t] as const),
  values.keytype,
  keytype.attrs,
)}${keytype.html}
<label for="pixkey">Chave Pix</label>
<input id="pixkey" name="pixkey" type="text" maxlength="140" required autocomplete="off" value="${escapeHtml(values.pixkey ?? '')}"${pixkey.attrs}>
<p class="hint">CPF ou CNPJ só com números; celular como +5511999998888.</p>${pixkey.html}
<label for="description">Descrição (opcional)</label>
<input id="description" name="description" type="text" maxlength="140" value="${escapeHtml(values.description ?? '')}"${description.attrs}>${description.html}
${codeInput(form.errors)}
<button type="submit">Pedir saque</button>
</form>
</div>`
    : '<p>Seu papel não permite pedir saques.</p>';
  return layout(
    'Saques',
    `<h1>Saques</h1>
${newWithdrawal}
<div class="box wide">
<form method="get" action="/panel/saques" class="filters">
<div>${select('filter-status', 'status', 'Situação', [['', 'Todas'], ...Object.entries(WITHDRAW_STATUS)], query.status)}</div>
<div>${dateInput('filter-start', 'start', 'Criados de', query.start)}</div>
<div>${dateInput('filter-end', 'end', 'Criados até', query.end)}</div>
<div><button type="submit">Filtrar</button></div>
</form>
${rows}
${nextPageLink('/panel/saques', query, view.withdrawals.length, view.pageSize)}
</div>`,
    chrome,
  );
}

export function withdrawalPage(w: Withdrawal, chrome: SignedInChrome, notice?: string): PanelPage {
  const line = (term: string, value: string, id?: string) => (value ? `<dt>${term}</dt><dd${id ? ` id="${id}"` : ''}>${value}</dd>` : '');
  return layout(
    `Saque ${w.reference}`,
    `<h1>Saque ${escapeHtml(w.reference)}</h1>
<div class="box wide">
${notice ? `<p role="status" id="notice">${escapeHtml(notice)}</p>` : ''}
<dl>
${line('Situação', escapeHtml(WITHDRAW_STATUS[w.status] ?? w.status), 'withdrawal-status')}
${line('Valor', formatBrl(w.amountCents), 'withdrawal-amount')}
${line('Tarifa', formatBrl(w.feeCents))}
${line('Chave Pix', `${escapeHtml(KEY_TYPE_LABELS[w.keytype] ?? w.keytype)}: ${escapeHtml(w.pixkey)}`)}
${line('Descrição', escapeHtml(w.description ?? ''))}
${line('Criado em', brazilTime(w.createdAt))}
${line('Pedido ao banco em', brazilTime(w.bankRequestedAt))}
${line('Pago em', brazilTime(w.paidAt))}
${line('Cancelado em', brazilTime(w.canceledAt))}
${line('Identificador Pix (E2E)', escapeHtml(w.endToEndId ?? ''))}
</dl>
<p><a href="/panel/saques">Voltar aos saques</a></p>
</div>`,
    chrome,
  );
}

const INVOICE_STATUS: Readonly<Record<string, string>> = { PENDING: 'Pendente', PAID: 'Paga', CANCELED: 'Cancelada', REFUNDED: 'Estornada' };
const INVOICE_METHOD: Readonly<Record<string, string>> = CHARGE_LABELS;
const EVENT_LABELS: Readonly<Record<string, string>> = {
  'invoice.paid': 'Fatura paga',
  'invoice.canceled': 'Fatura cancelada',
  'invoice.refunded': 'Fatura estornada',
};
const DELIVERY_STATUS: Readonly<Record<string, string>> = { pending: 'Em andamento', succeeded: 'Entregue', failed: 'Falhou' };

/** An invoice as the panel's list and page show it (the record's fields the pages read). */
export type InvoiceRow = {
  reference: string;
  invoiceId: number;
  invoiceNo: string;
  itemName: string;
  method: string;
  status: string;
  totalCents: number;
  dueDate: string;
  createdAt: string;
  paidAt?: string;
  canceledAt?: string;
  refundedAt?: string;
  paidAfterCancel?: boolean;
  payer: { email?: string; name?: string };
};

export type InvoicesQuery = { page: number; limit: number; invoice_no?: string; email?: string; start_date?: string; end_date?: string };

export function invoicesPage(invoices: readonly InvoiceRow[], query: InvoicesQuery, chrome: SignedInChrome): PanelPage {
  const rows =
    invoices.length === 0
      ? '<p id="no-invoices">Nenhuma fatura encontrada.</p>'
      : `<div class="table-wrap" tabindex="0" role="region" aria-label="Faturas"><table id="invoices">
<caption>Faturas, as mais novas primeiro</caption>
<thead><tr><th scope="col">Referência</th><th scope="col">Número</th><th scope="col">Criada em</th><th scope="col">Cliente</th><th scope="col">Método</th><th scope="col" class="num">Total</th><th scope="col">Situação</th></tr></thead>
<tbody>
${invoices
  .map(
    (i) =>
      `<tr data-reference="${escapeHtml(i.reference)}"><td><a href="/panel/faturas/${encodeURIComponent(i.reference)}">${escapeHtml(i.reference)}</a></td><td>${escapeHtml(i.invoiceNo)}</td><td>${brazilTime(i.createdAt)}</td><td>${escapeHtml(i.payer.email ?? i.payer.name ?? '')}</td><td>${escapeHtml(INVOICE_METHOD[i.method] ?? i.method)}</td><td class="num">${formatBrl(i.totalCents)}</td><td data-status="${escapeHtml(i.status)}">${escapeHtml(INVOICE_STATUS[i.status] ?? i.status)}</td></tr>`,
  )
  .join('\n')}
</tbody>
</table></div>`;
  return layout(
    'Faturas',
    `<h1>Faturas</h1>
<div class="box wide">
<form method="get" action="/panel/faturas" class="filters">
<div><label for="filter-number">Número da fatura</label>
<input id="filter-number" name="invoice_no" type="text" maxlength="100" value="${escapeHtml(query.invoice_no ?? '')}"></div>
<div><label for="filter-email">E-mail do cliente</label>
<input id="filter-email" name="email" type="text" maxlength="255" value="${escapeHtml(query.email ?? '')}"></div>
<div>${dateInput('filter-start', 'start_date', 'Criadas de', query.start_date)}</div>
<div>${dateInput('filter-end', 'end_date', 'Criadas até', query.end_date)}</div>
<div><button type="submit">Filtrar</button></div>
</form>
<p class="hint">As datas vão juntas (de e até).</p>
${rows}
${nextPageLink('/panel/faturas', query, invoices.length, query.limit)}
</div>`,
    chrome,
  );
}

export type InvoiceEventLine = {
  eventId: string;
  type: string;
  created: number | undefined;
  delivery?: { status: string; attempts: number; lastStatus: number | null; lastError: string | null; updatedAt: string };
};

export function invoicePage(invoice: InvoiceRow, events: readonly InvoiceEventLine[], chrome: SignedInChrome): PanelPage {
  const line = (term: string, value: string, id?: string) => (value ? `<dt>${term}</dt><dd${id ? ` id="${id}"` : ''}>${value}</dd>` : '');
  const eventRows =
    events.length === 0
      ? '<p id="no-events">Nenhum evento registrado para esta fatura ainda.</p>'
      : `<div class="table-wrap" tabindex="0" role="region" aria-label="Eventos e entregas"><table id="events">
<caption>Eventos enviados ao webhook</caption>
<thead><tr><th scope="col">Evento</th><th scope="col">Quando</th><th scope="col">Entrega</th><th scope="col">Tentativas</th><th scope="col">Última resposta</th></tr></thead>
<tbody>
${events
  .map((e) => {
    const d = e.delivery;
    const answer = d ? (d.lastStatus !== null ? `HTTP ${d.lastStatus}` : (d.lastError ?? '')) : '';
    return `<tr data-event="${escapeHtml(e.eventId)}" data-type="${escapeHtml(e.type)}"><td>${escapeHtml(EVENT_LABELS[e.type] ?? e.type)}<br><span class="hint">${escapeHtml(e.eventId)}</span></td><td>${e.created !== undefined ? brazilTime(new Date(e.created * 1000).toISOString()) : ''}</td><td data-delivery="${escapeHtml(d?.status ?? 'none')}">${escapeHtml(d ? (DELIVERY_STATUS[d.status] ?? d.status) : 'Sem webhook configurado')}</td><td>${d ? d.attempts : ''}</td><td>${escapeHtml(answer)}</td></tr>`;
  })
  .join('\n')}
</tbody>
</table></div>`;
  return layout(
    `Fatura ${invoice.reference}`,
    `<h1>Fatura ${escapeHtml(invoice.reference)}</h1>
<div class="box wide">
<dl>
${line('Situação', escapeHtml(INVOICE_STATUS[invoice.status] ?? invoice.status), 'invoice-status')}
${line('Total', formatBrl(invoice.totalCents), 'invoice-total')}
${line('Método', escapeHtml(INVOICE_METHOD[invoice.method] ?? invoice.method))}
${line('Número', escapeHtml(invoice.invoiceNo))}
${line('Id', String(invoice.invoiceId))}
${line('Item', escapeHtml(invoice.itemName))}
${line('Cliente', escapeHtml([invoice.payer.name, invoice.payer.email].filter(Boolean).join(' · ')))}
${line('Vencimento', escapeHtml(invoice.dueDate))}
${line('Criada em', brazilTime(invoice.createdAt))}
${line('Paga em', brazilTime(invoice.paidAt))}
${line('Cancelada em', brazilTime(invoice.canceledAt))}
${line('Estornada em', brazilTime(invoice.refundedAt))}
${invoice.paidAfterCancel ? line('Atenção', 'Paga depois de cancelada: o valor entrou no saldo e deve ser devolvido ao pagador.') : ''}
</dl>
</div>
<div class="box wide">
<h2>Eventos e entregas</h2>
${eventRows}
<p><a href="/panel/faturas">Voltar às faturas</a></p>
</div>`,
    chrome,
  );
}

const ENTRY_TYPES: Readonly<Record<string, string>> = {
  payment: 'Pagamento recebido',
  refund: 'Estorno',
  withdrawal: 'Saque (reserva)',
  withdrawal_fee: 'Tarifa de saque (reserva)',
  withdrawal_posted: 'Saque pago',
  withdrawal_release: 'Saque recusado (devolução)',
  adjustment: 'Ajuste',
};

export type StatementQuery = { page: number; limit: number; type?: string; start?: string; end?: string };

/** A signed amount in reais (the statement's movements: credits positive, debits negative). */
function signedBrl(cents: number): string {
  return cents < 0 ? `−${formatBrl(-cents)}` : formatBrl(cents);
}

export function statementPage(
  view: {
    entries: readonly { id: string; type: string; availableCents: number; reservedCents: number; reference: string; description: string; createdAt: string }[];
    mayExport: boolean;
  },
  query: StatementQuery,
  chrome: SignedInChrome,
): PanelPage {
  const filters = new URLSearchParams();
  for (const name of ['type', 'start', 'end'] as const) if (query[name]) filters.set(name, String(query[name]));
  const rows =
    view.entries.length === 0
      ? '<p id="no-entries">Nenhum lançamento encontrado.</p>'
      : `<div class="table-wrap" tabindex="0" role="region" aria-label="Lançamentos"><table id="statement">
<caption>Lançamentos, os mais novos primeiro</caption>
<thead><tr><th scope="col">Quando</th><th scope="col">Tipo</th><th scope="col">Descrição</th><th scope="col">Referência</th><th scope="col" class="num">Disponível</th><th scope="col" class="num">Reservado</th></tr></thead>
<tbody>
${view.entries
  .map(
    (e) =>
      `<tr data-entry="${escapeHtml(e.id)}" data-type="${escapeHtml(e.type)}"><td>${brazilTime(e.createdAt)}</td><td>${escapeHtml(ENTRY_TYPES[e.type] ?? e.type)}</td><td>${escapeHtml(e.description)}</td><td>${escapeHtml(e.reference)}</td><td class="num">${signedBrl(e.availableCents)}</td><td class="num">${signedBrl(e.reservedCents)}</td></tr>`,
  )
  .join('\n')}
</tbody>
</table></div>`;
  const exportLink = view.mayExport
    ? `<p><a id="export-csv" href="/panel/extrato/csv${filters.size > 0 ? `?${escapeHtml(filters.toString())}` : ''}" download>Exportar o período filtrado (CSV)</a></p>`
    : '';
  return layout(
    'Extrato',
    `<h1>Extrato</h1>
<div class="box wide">
<form method="get" action="/panel/extrato" class="filters">
<div>${select('filter-type', 'type', 'Tipo', [['', 'Todos'], ...Object.entries(ENTRY_TYPES)], query.type)}</div>
<div>${dateInput('filter-start', 'start', 'De', query.start)}</div>
<div>${dateInput('filter-end', 'end', 'Até', query.end)}</div>
<div><button type="submit">Filtrar</button></div>
</form>
${exportLink}
${rows}
${nextPageLink('/panel/extrato', query, view.entries.length, query.limit)}
</div>`,
    chrome,
  );
}

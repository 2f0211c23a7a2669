import { escapeHtml, formatBrl } from '../kit/html';
import { type MethodTotals, OVERVIEW_PAYMENTS_READ, type PaymentsSummary, type SummaryMethod } from '../../domain/panel/payments-summary';
import { CHARGE_LABELS, CHARGE_METHODS, METHOD_LABELS } from '../../domain/payment-methods';
import {
  brazilTime,
  codeInput,
  csrfField,
  errorSummary,
  fieldError,
  type FieldErrors,
  layout,
  newPasswordFields,
  newSecretForm,
  type PanelPage,
  type SignedInChrome,
} from './page-kit';

/** The merchant panel's access, home and settings pages (issue 27), in pt-BR, on the page kit (./page-kit.ts). */

export type { FieldErrors, PanelPage, SignedInChrome };

export function signInPage(input: { csrfToken: string; email?: string; message?: string; notice?: string }): PanelPage {
  const notice = input.notice ? `<p role="status">${escapeHtml(input.notice)}</p>` : '';
  return layout(
    'Entrar',
    `<div class="box">
<h1>Entrar no painel</h1>
${notice}${errorSummary(input.message, undefined)}
<form method="post" action="/panel/entrar" novalidate>
${csrfField(input.csrfToken)}
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" maxlength="254" required value="${escapeHtml(input.email ?? '')}">
<label for="password">Senha</label>
<input id="password" name="password" type="password" autocomplete="current-password" maxlength="128" required>
<button type="submit">Continuar</button>
</form>
<p><a href="/panel/senha/esqueci">Esqueci a senha</a></p>
</div>`,
  );
}

export function codePage(input: { csrfToken: string; message?: string }): PanelPage {
  return layout(
    'Código de verificação',
    `<div class="box">
<h1>Código de verificação</h1>
${errorSummary(input.message, undefined)}
<form method="post" action="/panel/entrar/codigo" novalidate>
${csrfField(input.csrfToken)}
${codeInput()}
<button type="submit">Entrar</button>
</form>
<p><a href="/panel/entrar">Voltar e entrar com outro e-mail</a></p>
</div>`,
  );
}

export type EnrollView = { email: string; roleLabel: string; secret: string; otpauthUri: string; qrDataUri: string; sealedSecret: string };

export function enrollPage(view: EnrollView, input: { csrfToken: string; action: string; errors?: FieldErrors; message?: string }): PanelPage {
  return layout(
    'Aceitar convite',
    `<div class="box">
<h1>Aceitar convite</h1>
<p>Você foi convidado como <strong>${escapeHtml(view.roleLabel)}</strong>. Seu e-mail de acesso: <strong>${escapeHtml(view.email)}</strong>.</p>
${errorSummary(input.message, input.errors)}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
${csrfField(input.csrfToken)}
<input type="hidden" name="enrollment" value="${escapeHtml(view.sealedSecret)}">
${newPasswordFields(input.errors)}
<h2>Aplicativo autenticador</h2>
<p>Leia o código QR com um aplicativo autenticador (Google Authenticator, Microsoft Authenticator, 1Password…).</p>
<img class="qr" src="${escapeHtml(view.qrDataUri)}" alt="Código QR para o aplicativo autenticador" width="220" height="220">
<p>Se não puder ler o código QR, cadastre esta chave no aplicativo:</p>
<p class="secret" id="totp-secret">${escapeHtml(view.secret)}</p>
<p>Ou use este endereço:</p>
<p class="secret" id="otpauth-uri">${escapeHtml(view.otpauthUri)}</p>
${codeInput(input.errors)}
<button type="submit">Criar acesso</button>
</form>
</div>`,
  );
}

export type OverviewView = { email: string; roleLabel: string; accountName: string; availableCents: number; reservedCents: number; payments: PaymentsSummary };

/** A row per charge method of the registry, in its order, then the payments recorded before entries named one. */
const SUMMARY_METHODS: readonly [SummaryMethod, string][] = [
  ...CHARGE_METHODS.map((method): [SummaryMethod, string] => [method, CHARGE_LABELS[method]]),
  ['other', 'Outros (antes do registro por método)'],
];

/** Today's and this month's payments per method (Brasília days); a row per method with payments, or a line saying there were none. */
function paymentsTable(payments: PaymentsSummary): string {
  const cell = (totals: MethodTotals | undefined) => (totals ? `${totals.count} · ${formatBrl(totals.cents)}` : '—');
  const rows = SUMMARY_METHODS.filter(([method]) => payments.month[method] !== undefined || payments.today[method] !== undefined).map(
    ([method, label]) =>
      `<tr data-method="${method}"><th scope="row">${label}</th><td>${cell(payments.today[method])}</td><td>${cell(payments.month[method])}</td></tr>`,
  );
  const partial = payments.monthComplete
    ? ''
    : `<p class="hint" id="payments-partial">O mês tem mais de ${OVERVIEW_PAYMENTS_READ.toLocaleString('pt-BR')} pagamentos: as somas são dos ${OVERVIEW_PAYMENTS_READ.toLocaleString('pt-BR')} mais recentes${payments.todayComplete ? ' (as de hoje estão completas)' : ''}. O extrato tem todos.</p>`;
  if (rows.length === 0) return '<p id="no-payments">Nenhum pagamento neste mês.</p>';
  return `<div class="table-wrap" tabindex="0" role="region" aria-label="Pagamentos por método"><table id="payments">
<caption>Pagamentos recebidos por método (quantidade · valor), no horário de Brasília</caption>
<thead><tr><th scope="col">Método</th><th scope="col">Hoje</th><th scope="col">Este mês</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table></div>${partial}`;
}

export function overviewPage(view: OverviewView, chrome: SignedInChrome): PanelPage {
  return layout(
    'Visão geral',
    `<h1>Visão geral</h1>
<div class="box wide">
<h2>${escapeHtml(view.accountName)}</h2>
<dl>
<dt>Saldo disponível</dt><dd class="amount" id="available">${formatBrl(view.availableCents)}</dd>
<dt>Reservado em saques</dt><dd id="reserved">${formatBrl(view.reservedCents)}</dd>
<dt>Seu papel</dt><dd>${escapeHtml(view.roleLabel)}</dd>
</dl>
</div>
<div class="box wide">
<h2>Pagamentos</h2>
${paymentsTable(view.payments)}
</div>`,
    chrome,
  );
}

export function keysPage(view: { publicKey: string; mayRotate: boolean; message?: string }, chrome: SignedInChrome): PanelPage {
  const rotate = view.mayRotate
    ? `<form method="post" action="/panel/chaves" novalidate>
${csrfField(chrome.csrfToken)}
<h2>Gerar novas chaves</h2>
<p>As chaves atuais e todos os tokens emitidos com elas param de funcionar na hora (sua integração precisa da nova chave secreta).</p>
${codeInput()}
<button type="submit">Gerar novas chaves</button>
</form>`
    : '<p>Seu papel não permite gerar novas chaves.</p>';
  return layout(
    'Chaves de API',
    `<h1>Chaves de API</h1>
<div class="box wide">
${errorSummary(view.message, undefined)}
<dl><dt>Chave pública</dt><dd class="secret" id="public-key">${escapeHtml(view.publicKey)}</dd></dl>
${rotate}
</div>`,
    chrome,
  );
}

export function newKeysPage(keys: { publicKey: string; secretKey: string }, chrome: SignedInChrome): PanelPage {
  return layout(
    'Novas chaves de API',
    `<h1>Novas chaves de API</h1>
<div class="box wide">
<p role="status">Chaves novas geradas. A chave secreta aparece só agora: copie-a para o servidor da sua integração.</p>
<dl>
<dt>Chave pública</dt><dd class="secret" id="public-key">${escapeHtml(keys.publicKey)}</dd>
<dt>Chave secreta</dt><dd class="secret" id="secret-key">${escapeHtml(keys.secretKey)}</dd>
</dl>
<p><a href="/panel/chaves">Voltar às chaves</a></p>
</div>`,
    chrome,
  );
}

export type DeliveryRow = {
  eventId: string;
  eventType: string;
  status: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  updatedAt: string;
};

const DELIVERY_STATUS: Readonly<Record<string, string>> = { pending: 'Em andamento', succeeded: 'Entregue', failed: 'Falhou' };

/** A delivery whose series ended (succeeded or failed) may be sent again: a form posting its event to /panel/webhooks/reenviar. */
function redeliverForm(d: DeliveryRow, csrfToken: string): string {
  if (d.status !== 'succeeded' && d.status !== 'failed') return '';
  return `<form method="post" action="/panel/webhooks/reenviar" class="inline">${csrfField(csrfToken)}<input type="hidden" name="event" value="${escapeHtml(d.eventId)}"><button type="submit" aria-label="Reenviar o evento ${escapeHtml(d.eventId)}">Reenviar</button></form>`;
}

/** The latest deliveries; with `redeliver` (a role that manages the webhook, a URL configured), a "Reenviar" form on each ended one. */
function deliveriesTable(deliveries: readonly DeliveryRow[], redeliver?: { csrfToken: string }): string {
  if (deliveries.length === 0) return '<p id="no-deliveries">Nenhuma entrega ainda.</p>';
  const action = redeliver ? '<th scope="col">Ação</th>' : '';
  return `<div class="table-wrap" tabindex="0" role="region" aria-label="Entregas"><table id="deliveries">
<caption>Últimas entregas, as mais novas primeiro</caption>
<thead><tr><th scope="col">Evento</th><th scope="col">Situação</th><th scope="col">Tentativas</th><th scope="col">Última resposta</th><th scope="col">Quando</th>${action}</tr></thead>
<tbody>
${deliveries
  .map(
    (d) =>
      `<tr data-event="${escapeHtml(d.eventId)}" data-delivery="${escapeHtml(d.status)}"><td>${escapeHtml(d.eventType)}<br><span class="hint">${escapeHtml(d.eventId)}</span></td><td>${escapeHtml(DELIVERY_STATUS[d.status] ?? d.status)}</td><td>${d.attempts}</td><td>${escapeHtml(d.lastStatus !== null ? `HTTP ${d.lastStatus}` : (d.lastError ?? ''))}</td><td>${brazilTime(d.updatedAt)}</td>${redeliver ? `<td>${redeliverForm(d, redeliver.csrfToken)}</td>` : ''}</tr>`,
  )
  .join('\n')}
</tbody>
</table></div>`;
}

export function webhooksPage(
  view: {
    url?: string;
    secretConfigured: boolean;
    mayManage: boolean;
    message?: string;
    errors?: FieldErrors;
    deliveries?: readonly DeliveryRow[];
    notice?: string;
  },
  chrome: SignedInChrome,
): PanelPage {
  const url = fieldError('url', view.errors, 'url');
  const ping =
    view.mayManage && view.url
      ? `<form method="post" action="/panel/webhooks/teste">
${csrfField(chrome.csrfToken)}
<h2>Evento de teste</h2>
<p>Envia um evento <code>ping</code> assinado para a URL atual.</p>
<button type="submit">Enviar evento de teste</button>
</form>`
      : '';
  const forms = view.mayManage
    ? `<form method="post" action="/panel/webhooks" novalidate>
${csrfField(chrome.csrfToken)}
<h2>Endereço do webhook</h2>
<label for="url">URL do webhook</label>
<input id="url" name="url" type="url" inputmode="url" maxlength="2048" required value="${escapeHtml(view.url ?? '')}"${url.attrs}>
<p class="hint">HTTPS, em um endereço público. Os eventos são assinados com o segredo (cabeçalho Service-Signature).</p>${url.html}
${codeInput(view.errors)}
<button type="submit">Salvar URL</button>
</form>
${view.secretConfigured ? newSecretForm({ action: '/panel/webhooks/segredo', csrfToken: chrome.csrfToken, whoUpdates: 'receptor' }) : ''}`
    : '<p>Seu papel não permite mudar o webhook.</p>';
  return layout(
    'Webhooks',
    `<h1>Webhooks</h1>
<div class="box wide">
${view.notice ? `<p role="status" id="notice">${escapeHtml(view.notice)}</p>` : ''}
${errorSummary(view.message, view.errors)}
<dl><dt>URL atual</dt><dd id="webhook-url">${escapeHtml(view.url ?? 'nenhuma')}</dd><dt>Segredo</dt><dd>${view.secretConfigured ? 'configurado' : 'nenhum'}</dd></dl>
${forms}
${ping}
</div>
<div class="box wide">
<h2>Entregas</h2>
${deliveriesTable(view.deliveries ?? [], view.mayManage && view.url ? { csrfToken: chrome.csrfToken } : undefined)}
</div>`,
    chrome,
  );
}

export function webhookSecretPage(saved: { url?: string; secret?: string; notice: string }, chrome: SignedInChrome): PanelPage {
  return layout(
    'Webhooks',
    `<h1>Webhooks</h1>
<div class="box wide">
<p role="status">${escapeHtml(saved.notice)}</p>
<dl>${saved.url ? `<dt>URL</dt><dd id="webhook-url">${escapeHtml(saved.url)}</dd>` : ''}${saved.secret ? `<dt>Segredo de assinatura</dt><dd class="secret" id="webhook-secret">${escapeHtml(saved.secret)}</dd>` : ''}</dl>
<p><a href="/panel/webhooks">Voltar aos webhooks</a></p>
</div>`,
    chrome,
  );
}

export type CustomerRow = { id: number; name: string; email: string | null; document: string; city: string | null; state: { uf: string } | null };

export function customersPage(rows: readonly CustomerRow[], query: { page: number; name?: string; email?: string }, chrome: SignedInChrome): PanelPage {
  const list =
    rows.length === 0
      ? '<p id="no-customers">Nenhum cliente encontrado.</p>'
      : `<div class="table-wrap" tabindex="0" role="region" aria-label="Clientes"><table id="customers">
<caption>Clientes, os mais novos primeiro</caption>
<thead><tr><th scope="col">Id</th><th scope="col">Nome</th><th scope="col">E-mail</th><th scope="col">Documento</th><th scope="col">Cidade</th></tr></thead>
<tbody>
${rows
  .map(
    (c) =>
      `<tr><td><a href="/panel/clientes/${c.id}">${c.id}</a></td><td>${escapeHtml(c.name)}</td><td>${escapeHtml(c.email ?? '')}</td><td>${escapeHtml(c.document)}</td><td>${escapeHtml([c.city, c.state?.uf].filter(Boolean).join(' / '))}</td></tr>`,
  )
  .join('\n')}
</tbody>
</table></div>`;
  const next =
    rows.length > 0
      ? `<p><a href="/panel/clientes?page=${query.page + 1}${query.name ? `&amp;name=${encodeURIComponent(query.name)}` : ''}${query.email ? `&amp;email=${encodeURIComponent(query.email)}` : ''}">Próxima página</a></p>`
      : '';
  return layout(
    'Clientes',
    `<h1>Clientes</h1>
<div class="box wide">
<form method="get" action="/panel/clientes">
<label for="filter-name">Nome</label>
<input id="filter-name" name="name" type="text" maxlength="100" value="${escapeHtml(query.name ?? '')}">
<label for="filter-email">E-mail do cliente</label>
<input id="filter-email" name="email" type="text" maxlength="100" value="${escapeHtml(query.email ?? '')}">
<button type="submit">Filtrar</button>
</form>
${list}
${next}
</div>`,
    chrome,
  );
}

const METHOD_NAMES: Readonly<Record<string, string>> = METHOD_LABELS;

export function methodsPage(methods: readonly { method: string; enabled: boolean }[], chrome: SignedInChrome): PanelPage {
  return layout(
    'Métodos de pagamento',
    `<h1>Métodos de pagamento</h1>
<div class="box wide">
<ul id="methods">
${methods.map((m) => `<li data-method="${escapeHtml(m.method)}">${escapeHtml(METHOD_NAMES[m.method] ?? m.method)}: <strong>${m.enabled ? 'habilitado' : 'desabilitado'}</strong></li>`).join('\n')}
</ul>
<p>Para habilitar ou desabilitar um método, fale com o suporte do gateway.</p>
</div>`,
    chrome,
  );
}

export type AuditRow = { at: string; email: string; action: string; detail?: string; ip: string };

const ACTION_LABELS: Readonly<Record<string, string>> = {
  'panel.enrolled': 'Aceitou o convite',
  'panel.signed_in': 'Entrou no painel',
  'panel.signed_out': 'Saiu do painel',
  'keys.rotated': 'Gerou novas chaves de API',
  'webhook.configured': 'Mudou a URL do webhook',
  'webhook.secret_rotated': 'Gerou um novo segredo do webhook',
  'webhook.test_sent': 'Enviou um evento de teste ao webhook',
  'webhook.redelivered': 'Reenviou um evento ao webhook',
  'checkout.signing_set': 'Mudou a exigência de formulários assinados no checkout',
  'checkout.signing_secret_rotated': 'Gerou um novo segredo de assinatura do checkout',
  'withdrawal.requested': 'Pediu um saque Pix',
  'team.invited': 'Convidou uma pessoa',
  'team.role_changed': 'Mudou o papel de uma pessoa',
  'team.removed': 'Removeu uma pessoa da equipe',
  'team.invite_revoked': 'Revogou um convite',
  'panel.signed_out_everywhere': 'Saiu de todas as sessões',
  'panel.password_changed': 'Trocou a senha',
  'panel.authenticator_replaced': 'Trocou o autenticador',
};

export function auditPage(rows: readonly AuditRow[], chrome: SignedInChrome): PanelPage {
  const body =
    rows.length === 0
      ? '<p>Nenhuma ação registrada.</p>'
      : `<div class="table-wrap" tabindex="0" role="region" aria-label="Ações registradas"><table id="audit">
<caption>Últimas ações no painel</caption>
<thead><tr><th scope="col">Quando (UTC)</th><th scope="col">Quem</th><th scope="col">Ação</th><th scope="col">Endereço</th></tr></thead>
<tbody>
${rows
  .map(
    (row) =>
      `<tr data-action="${escapeHtml(row.action)}"><td>${escapeHtml(row.at.slice(0, 19).replace('T', ' '))}</td><td>${escapeHtml(row.email)}</td><td>${escapeHtml(ACTION_LABELS[row.action] ?? row.action)}${row.detail ? `<br><span class="hint">${escapeHtml(row.detail)}</span>` : ''}</td><td>${escapeHtml(row.ip)}</td></tr>`,
  )
  .join('\n')}
</tbody>
</table></div>`;
  return layout('Auditoria', `<h1>Auditoria</h1>\n<div class="box wide">\n${body}\n</div>`, chrome);
}

export { panelErrorPage } from './error-page';

export type CustomerDetailView = CustomerRow & {
  document_type: string;
  zipcode: string | null;
  district: string | null;
  street: string | null;
  number: string | null;
  phone: string | null;
  mobilephone: string | null;
  created_at: string;
  country?: { name?: string } | null;
};

export function customerPage(c: CustomerDetailView, chrome: SignedInChrome): PanelPage {
  const line = (term: string, value: string | null | undefined, id?: string) =>
    value ? `<dt>${term}</dt><dd${id ? ` id="${id}"` : ''}>${escapeHtml(value)}</dd>` : '';
  const address = [[c.street, c.number].filter(Boolean).join(', '), c.district, [c.city, c.state?.uf].filter(Boolean).join(' / '), c.zipcode]
    .filter(Boolean)
    .join(' · ');
  return layout(
    `Cliente ${c.id}`,
    `<h1>${escapeHtml(c.name)}</h1>
<div class="box wide">
<dl>
${line('Id', String(c.id), 'customer-id')}
${line(c.document_type, c.document, 'customer-document')}
${line('E-mail', c.email)}
${line('Telefone', c.phone)}
${line('Celular', c.mobilephone)}
${line('Endereço', address)}
${line('País', c.country?.name)}
${line('Criado em', brazilTime(c.created_at))}
</dl>
<p><a href="/panel/clientes">Voltar aos clientes</a></p>
</div>`,
    chrome,
  );
}

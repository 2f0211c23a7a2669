import { checkoutSecurityHeaders, cspHash, escapeHtml, formatBrl } from '../checkout/render';

/**
 * The merchant panel's pages (issue 27), in pt-BR: plain HTML forms, no script at all; one stylesheet
 * inline, allowed by its hash (no 'unsafe-inline'); every control with a visible label; errors in a
 * summary announced to screen readers and beside their fields.
 */

export type PanelPage = { html: string; headers: Record<string, string> };

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f4f5f7}
header{background:#12355b;color:#fff;padding:.75rem 1rem;display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;justify-content:space-between}
header a,header button{color:#fff}
header .brand{font-weight:700;font-size:1.1rem;margin:0}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
main{max-width:60rem;margin:1.5rem auto;padding:0 1rem}
.box{background:#fff;border:1px solid #d0d4da;border-radius:8px;padding:1.25rem;margin-bottom:1rem;max-width:30rem}
.wide{max-width:none}
h1{font-size:1.5rem;margin:0 0 1rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;padding:.6rem;font-size:1rem;border:1px solid #6b7280;border-radius:6px}
input:focus,button:focus,a:focus{outline:3px solid #f59e0b;outline-offset:2px}
button{margin-top:1rem;padding:.65rem 1.25rem;font-size:1rem;border:0;border-radius:6px;background:#12355b;color:#fff;cursor:pointer}
.link-button{background:none;border:1px solid #fff;margin:0;padding:.3rem .75rem}
.errors{border:2px solid #b91c1c;background:#fef2f2;color:#7f1d1d;border-radius:6px;padding:.75rem 1rem;margin-bottom:1rem}
.field-error{color:#b91c1c;margin:.25rem 0 0}
.hint{color:#4b5563;font-size:.9rem;margin:.25rem 0 0}
.secret{font-family:ui-monospace,monospace;word-break:break-all;background:#f3f4f6;padding:.5rem;border-radius:4px}
.qr{display:block;width:220px;height:220px;image-rendering:pixelated}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dt{font-weight:600}
dd{margin:0}
table{border-collapse:collapse;width:100%}
caption{text-align:left;font-weight:600;margin-bottom:.5rem}
th,td{text-align:left;padding:.4rem;border-bottom:1px solid #d0d4da;vertical-align:top}
.table-wrap{overflow-x:auto}
.amount{font-size:1.5rem;font-weight:700}
`;

const STYLE_HASH = cspHash(STYLE);

function headers(): Record<string, string> {
  return checkoutSecurityHeaders([], { styleHashes: [STYLE_HASH] });
}

export type SignedInChrome = { email: string; csrfToken: string };

function layout(title: string, body: string, chrome?: SignedInChrome): PanelPage {
  const top = chrome
    ? `<header>
<p class="brand">Painel</p>
<nav aria-label="Principal"><ul><li><a href="/panel">Visão geral</a></li><li><a href="/panel/clientes">Clientes</a></li><li><a href="/panel/metodos">Métodos de pagamento</a></li><li><a href="/panel/chaves">Chaves de API</a></li><li><a href="/panel/webhooks">Webhooks</a></li><li><a href="/panel/auditoria">Auditoria</a></li></ul></nav>
<form method="post" action="/panel/sair"><input type="hidden" name="csrf_token" value="${escapeHtml(chrome.csrfToken)}"><span>${escapeHtml(chrome.email)}</span> <button type="submit" class="link-button">Sair</button></form>
</header>`
    : `<header><p class="brand">Painel</p></header>`;
  const html = `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Painel</title>
<style>${STYLE}</style>
</head>
<body>
${top}
<main id="conteudo">
${body}
</main>
</body>
</html>`;
  return { html, headers: headers() };
}

export type FieldErrors = Readonly<Record<string, readonly string[]>>;

function errorSummary(message: string | undefined, fieldErrors: FieldErrors | undefined): string {
  const messages = [...(message ? [message] : []), ...Object.values(fieldErrors ?? {}).flat()];
  if (messages.length === 0) return '';
  return `<div class="errors" role="alert" id="form-errors"><ul>${messages.map((m) => `<li>${escapeHtml(m)}</li>`).join('')}</ul></div>`;
}

function fieldError(id: string, errors: FieldErrors | undefined, field: string): { attrs: string; html: string } {
  const messages = errors?.[field] ?? [];
  if (messages.length === 0) return { attrs: '', html: '' };
  return { attrs: ` aria-invalid="true" aria-describedby="${id}-erro"`, html: `<p class="field-error" id="${id}-erro">${messages.map(escapeHtml).join(' ')}</p>` };
}

const csrfField = (token: string) => `<input type="hidden" name="csrf_token" value="${escapeHtml(token)}">`;

const codeInput = (errors?: FieldErrors) => {
  const error = fieldError('code', errors, 'code');
  return `<label for="code">Código de verificação</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required${error.attrs}>
<p class="hint" id="code-dica">Os 6 dígitos que o aplicativo autenticador mostra agora.</p>${error.html}`;
};

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
  const password = fieldError('password', input.errors, 'password');
  const confirmation = fieldError('confirmation', input.errors, 'confirmation');
  return layout(
    'Aceitar convite',
    `<div class="box">
<h1>Aceitar convite</h1>
<p>Você foi convidado como <strong>${escapeHtml(view.roleLabel)}</strong>. Seu e-mail de acesso: <strong>${escapeHtml(view.email)}</strong>.</p>
${errorSummary(input.message, input.errors)}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
${csrfField(input.csrfToken)}
<input type="hidden" name="enrollment" value="${escapeHtml(view.sealedSecret)}">
<label for="password">Senha</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="12" maxlength="128" required aria-describedby="password-dica"${password.attrs}>
<p class="hint" id="password-dica">Pelo menos 12 caracteres. Uma frase longa é mais segura e fácil de lembrar.</p>${password.html}
<label for="confirmation">Confirme a senha</label>
<input id="confirmation" name="confirmation" type="password" autocomplete="new-password" maxlength="128" required${confirmation.attrs}>${confirmation.html}
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

export type OverviewView = { email: string; roleLabel: string; accountName: string; availableCents: number; reservedCents: number };

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

export function webhooksPage(view: { url?: string; secretConfigured: boolean; mayManage: boolean; message?: string; errors?: FieldErrors }, chrome: SignedInChrome): PanelPage {
  const url = fieldError('url', view.errors, 'url');
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
${
  view.secretConfigured
    ? `<form method="post" action="/panel/webhooks/segredo" novalidate>
${csrfField(chrome.csrfToken)}
<h2>Segredo de assinatura</h2>
<p>Um segredo novo substitui o atual na hora: atualize o seu receptor logo em seguida.</p>
<label for="code-secret">Código de verificação</label>
<input id="code-secret" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required>
<button type="submit">Gerar novo segredo</button>
</form>`
    : ''
}`
    : '<p>Seu papel não permite mudar o webhook.</p>';
  return layout(
    'Webhooks',
    `<h1>Webhooks</h1>
<div class="box wide">
${errorSummary(view.message, view.errors)}
<dl><dt>URL atual</dt><dd id="webhook-url">${escapeHtml(view.url ?? 'nenhuma')}</dd><dt>Segredo</dt><dd>${view.secretConfigured ? 'configurado' : 'nenhum'}</dd></dl>
${forms}
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
      `<tr><td>${c.id}</td><td>${escapeHtml(c.name)}</td><td>${escapeHtml(c.email ?? '')}</td><td>${escapeHtml(c.document)}</td><td>${escapeHtml([c.city, c.state?.uf].filter(Boolean).join(' / '))}</td></tr>`,
  )
  .join('\n')}
</tbody>
</table></div>`;
  const next = rows.length > 0 ? `<p><a href="/panel/clientes?page=${query.page + 1}${query.name ? `&amp;name=${encodeURIComponent(query.name)}` : ''}${query.email ? `&amp;email=${encodeURIComponent(query.email)}` : ''}">Próxima página</a></p>` : '';
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

const METHOD_NAMES: Readonly<Record<string, string>> = { pix: 'Pix', boleto: 'Boleto', card: 'Cartão de crédito' };

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

const ERROR_TITLES: Readonly<Record<number, string>> = {
  400: 'Pedido inválido',
  401: 'Entre de novo',
  403: 'Página expirada',
  404: 'Página não encontrada',
  409: 'Conflito',
  413: 'Pedido grande demais',
  422: 'Dados inválidos',
  429: 'Muitas tentativas',
  500: 'Erro no painel',
  503: 'Painel indisponível',
};

export function panelErrorPage(status: number, message: string | undefined, fieldErrors?: FieldErrors): PanelPage {
  const title = ERROR_TITLES[status] ?? ERROR_TITLES[500] ?? 'Erro';
  const fields = Object.entries(fieldErrors ?? {}).filter(([, messages]) => messages.length > 0);
  const list =
    fields.length === 0
      ? ''
      : `\n<ul id="field-errors">\n${fields.map(([name, messages]) => `<li data-field="${escapeHtml(name)}">${escapeHtml(name)}: ${messages.map(escapeHtml).join('; ')}</li>`).join('\n')}\n</ul>`;
  return layout(
    title,
    `<div class="box">
<h1 id="error-title">${escapeHtml(title)}</h1>
<p id="error-message">${escapeHtml(message ?? 'Não foi possível concluir. Tente de novo.')}</p>${list}
<p><a href="/panel/entrar">Ir para a entrada do painel</a></p>
</div>`,
  );
}

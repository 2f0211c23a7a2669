import { checkoutSecurityHeaders, cspHash, escapeHtml } from '../kit/html';
import { brazilTime } from '../../domain/brazil-time';

/**
 * What every page of the merchant panel (issue 27) is made of, in pt-BR: plain HTML forms, no script at all; one stylesheet
 * inline, allowed by its hash (no 'unsafe-inline'); every control with a visible label; errors in a
 * summary announced to screen readers and beside their fields.
 */

/** A panel answer: its text (an HTML page; a CSV file says its own type) and headers. */
export type PanelPage = { html: string; headers: Record<string, string>; contentType?: string };

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
input,select{width:100%;padding:.6rem;font-size:1rem;border:1px solid #6b7280;border-radius:6px}
input:focus,select:focus,button:focus,a:focus{outline:3px solid #f59e0b;outline-offset:2px}
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
.num{text-align:right;white-space:nowrap}
.filters{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:0 1rem;align-items:end}
`;

const STYLE_HASH = cspHash(STYLE);

/** The panel's security headers (CSP by hash, frame-ancestors 'none', no caching): every answer's. */
export function panelHeaders(): Record<string, string> {
  return checkoutSecurityHeaders([], { styleHashes: [STYLE_HASH] });
}

export type SignedInChrome = { email: string; csrfToken: string };

export function layout(title: string, body: string, chrome?: SignedInChrome): PanelPage {
  const top = chrome
    ? `<header>
<p class="brand">Painel</p>
<nav aria-label="Principal"><ul><li><a href="/panel">Visão geral</a></li><li><a href="/panel/faturas">Faturas</a></li><li><a href="/panel/saques">Saques</a></li><li><a href="/panel/extrato">Extrato</a></li><li><a href="/panel/clientes">Clientes</a></li><li><a href="/panel/metodos">Métodos de pagamento</a></li><li><a href="/panel/chaves">Chaves de API</a></li><li><a href="/panel/webhooks">Webhooks</a></li><li><a href="/panel/checkout">Checkout</a></li><li><a href="/panel/equipe">Equipe</a></li><li><a href="/panel/auditoria">Auditoria</a></li><li><a href="/panel/seguranca">Segurança</a></li></ul></nav>
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
  return { html, headers: panelHeaders() };
}

export type FieldErrors = Readonly<Record<string, readonly string[]>>;

export function errorSummary(message: string | undefined, fieldErrors: FieldErrors | undefined): string {
  // Each field's messages name their field (data-field), as the error pages do.
  const items = [
    ...(message ? [`<li>${escapeHtml(message)}</li>`] : []),
    ...Object.entries(fieldErrors ?? {}).flatMap(([field, messages]) => messages.map((m) => `<li data-field="${escapeHtml(field)}">${escapeHtml(m)}</li>`)),
  ];
  if (items.length === 0) return '';
  return `<div class="errors" role="alert" id="form-errors"><ul>${items.join('')}</ul></div>`;
}

export function fieldError(id: string, errors: FieldErrors | undefined, field: string): { attrs: string; html: string } {
  const messages = errors?.[field] ?? [];
  if (messages.length === 0) return { attrs: '', html: '' };
  return {
    attrs: ` aria-invalid="true" aria-describedby="${id}-erro"`,
    html: `<p class="field-error" id="${id}-erro">${messages.map(escapeHtml).join(' ')}</p>`,
  };
}

export const csrfField = (token: string) => `<input type="hidden" name="csrf_token" value="${escapeHtml(token)}">`;

/** A new password and its confirmation (the enrollment's and a reset link's), with their errors. */
export function newPasswordFields(errors?: FieldErrors): string {
  const password = fieldError('password', errors, 'password');
  const confirmation = fieldError('confirmation', errors, 'confirmation');
  return `<label for="password">Senha</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="12" maxlength="128" required aria-describedby="password-dica"${password.attrs}>
<p class="hint" id="password-dica">Pelo menos 12 caracteres. Uma frase longa é mais segura e fácil de lembrar.</p>${password.html}
<label for="confirmation">Confirme a senha</label>
<input id="confirmation" name="confirmation" type="password" autocomplete="new-password" maxlength="128" required${confirmation.attrs}>${confirmation.html}`;
}

/** A new signing secret's form (the webhook's, the checkout's): it replaces the current one at once; a fresh code. */
export function newSecretForm(input: { action: string; csrfToken: string; whoUpdates: string }): string {
  return `<form method="post" action="${input.action}" novalidate>
${csrfField(input.csrfToken)}
<h2>Segredo de assinatura</h2>
<p>Um segredo novo substitui o atual na hora: atualize o seu ${input.whoUpdates} logo em seguida.</p>
<label for="code-secret">Código de verificação</label>
<input id="code-secret" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required>
<button type="submit">Gerar novo segredo</button>
</form>`;
}

export const codeInput = (errors?: FieldErrors) => {
  const error = fieldError('code', errors, 'code');
  return `<label for="code">Código de verificação</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required${error.attrs}>
<p class="hint" id="code-dica">Os 6 dígitos que o aplicativo autenticador mostra agora.</p>${error.html}`;
};

export { brazilTime };

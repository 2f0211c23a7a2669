import { escapeHtml } from '../kit/html';
import { brazilTime, codeInput, csrfField, errorSummary, fieldError, type FieldErrors, layout, type PanelPage, type SignedInChrome } from './page-kit';

/** The merchant panel's security page (issue 27): the person's open sessions, "sign out everywhere", a new password. */
export type SessionRow = { createdAt: string; lastSeenAt: string; ip: string; userAgent: string; current: boolean };

export function securityPage(
  view: { email: string; sessions: readonly SessionRow[] },
  chrome: SignedInChrome,
  form: { message?: string; errors?: FieldErrors; notice?: string } = {},
): PanelPage {
  const current = fieldError('current-password', form.errors, 'current');
  const password = fieldError('new-password', form.errors, 'password');
  const confirmation = fieldError('new-confirmation', form.errors, 'confirmation');
  const rows = view.sessions
    .map(
      (s) =>
        `<tr data-session="${s.current ? 'current' : 'other'}"><td>${brazilTime(s.createdAt)}${s.current ? ' (esta)' : ''}</td><td>${brazilTime(s.lastSeenAt)}</td><td>${escapeHtml(s.ip)}</td><td>${escapeHtml(s.userAgent.slice(0, 120))}</td></tr>`,
    )
    .join('\n');
  return layout(
    'Segurança',
    `<h1>Segurança</h1>
${form.notice ? `<p role="status" id="notice">${escapeHtml(form.notice)}</p>` : ''}
${errorSummary(form.message, form.errors)}
<div class="box wide">
<h2>Sessões abertas</h2>
<div class="table-wrap" tabindex="0" role="region" aria-label="Sessões abertas"><table id="sessions">
<caption>Onde ${escapeHtml(view.email)} está conectado</caption>
<thead><tr><th scope="col">Entrou em</th><th scope="col">Último uso</th><th scope="col">Endereço</th><th scope="col">Navegador</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></div>
<form method="post" action="/panel/seguranca/sessoes">
${csrfField(chrome.csrfToken)}
<p>Encerra todas as sessões, esta também: será preciso entrar de novo.</p>
<button type="submit">Sair de todas as sessões</button>
</form>
</div>
<div class="box">
<h2>Trocar a senha</h2>
<form method="post" action="/panel/seguranca/senha" novalidate>
${csrfField(chrome.csrfToken)}
<label for="current-password">Senha atual</label>
<input id="current-password" name="current" type="password" autocomplete="current-password" maxlength="128" required${current.attrs}>${current.html}
<label for="new-password">Nova senha</label>
<input id="new-password" name="password" type="password" autocomplete="new-password" minlength="12" maxlength="128" required aria-describedby="new-password-dica"${password.attrs}>
<p class="hint" id="new-password-dica">Pelo menos 12 caracteres; uma frase longa é uma boa senha.</p>${password.html}
<label for="new-confirmation">Confirme a nova senha</label>
<input id="new-confirmation" name="confirmation" type="password" autocomplete="new-password" maxlength="128" required${confirmation.attrs}>${confirmation.html}
<p>Depois da troca, todas as sessões terminam: entre de novo com a nova senha.</p>
<button type="submit">Trocar a senha</button>
</form>
</div>
<div class="box">
<h2>Trocar o autenticador</h2>
<form method="post" action="/panel/seguranca/autenticador" novalidate>
${csrfField(chrome.csrfToken)}
<p>Para um celular novo: confirme com um código do autenticador atual; depois leia o novo código QR.</p>
<label for="code-current">Código de verificação</label>
<input id="code-current" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required>
<button type="submit">Trocar o autenticador</button>
</form>
</div>`,
    chrome,
  );
}

export function newAuthenticatorPage(
  view: { secret: string; otpauthUri: string; qrDataUri: string; sealedSecret: string },
  chrome: SignedInChrome,
  errors?: FieldErrors,
): PanelPage {
  return layout(
    'Novo autenticador',
    `<h1>Novo autenticador</h1>
<div class="box">
${errorSummary(undefined, errors)}
<p>Leia o código QR com o aplicativo autenticador do celular novo. O autenticador atual vale até você confirmar.</p>
<img class="qr" src="${escapeHtml(view.qrDataUri)}" alt="Código QR para o aplicativo autenticador" width="220" height="220">
<p>Se não puder ler o código QR, cadastre esta chave no aplicativo:</p>
<p class="secret" id="totp-secret">${escapeHtml(view.secret)}</p>
<p>Ou use este endereço:</p>
<p class="secret" id="otpauth-uri">${escapeHtml(view.otpauthUri)}</p>
<form method="post" action="/panel/seguranca/autenticador/confirmar" novalidate>
${csrfField(chrome.csrfToken)}
<input type="hidden" name="enrollment" value="${escapeHtml(view.sealedSecret)}">
${codeInput(errors)}
<button type="submit">Confirmar o novo autenticador</button>
</form>
</div>`,
    chrome,
  );
}

import { escapeHtml } from '../kit/html';
import { codeInput, csrfField, errorSummary, type FieldErrors, layout, newPasswordFields, type PanelPage } from './page-kit';

/** What the forgot-password form answers, whether the e-mail signs in or not (and whether a link was sent). */
export const RESET_ASKED = 'Se este e-mail entra no painel, enviamos a ele um link para escolher uma senha nova. O link vale por 1 hora.';

/** "Esqueci a senha": the e-mail to send a reset link to. */
export function forgotPage(input: { csrfToken: string; notice?: string; email?: string }): PanelPage {
  return layout(
    'Esqueci a senha',
    `<div class="box">
<h1>Esqueci a senha</h1>
${input.notice ? `<p role="status" id="notice">${escapeHtml(input.notice)}</p>` : ''}
<form method="post" action="/panel/senha/esqueci" novalidate>
${csrfField(input.csrfToken)}
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="username" maxlength="254" required value="${escapeHtml(input.email ?? '')}">
<p class="hint">Enviamos um link para este e-mail. Para usá-lo você vai precisar também do aplicativo autenticador.</p>
<button type="submit">Enviar link</button>
</form>
<p><a href="/panel/entrar">Voltar para entrar</a></p>
</div>`,
  );
}

/** A reset link's page: the new password (twice) and a code of the authenticator. */
export function resetPasswordPage(input: { csrfToken: string; action: string; email: string; message?: string; errors?: FieldErrors }): PanelPage {
  return layout(
    'Nova senha',
    `<div class="box">
<h1>Nova senha</h1>
<p>Para <strong>${escapeHtml(input.email)}</strong>.</p>
${errorSummary(input.message, input.errors)}
<form method="post" action="${escapeHtml(input.action)}" novalidate>
${csrfField(input.csrfToken)}
${newPasswordFields(input.errors)}
${codeInput(input.errors)}
<button type="submit">Salvar a senha nova</button>
</form>
</div>`,
  );
}

/** A link that does not open (unknown, used, expired), or a password saved: one line and the way on. */
export function recoveryMessagePage(input: { title: string; message: string; link: { href: string; text: string } }): PanelPage {
  return layout(
    input.title,
    `<div class="box">
<h1>${escapeHtml(input.title)}</h1>
<p role="status">${escapeHtml(input.message)}</p>
<p><a href="${escapeHtml(input.link.href)}">${escapeHtml(input.link.text)}</a></p>
</div>`,
  );
}

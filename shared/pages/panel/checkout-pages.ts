import { escapeHtml } from '../kit/html';
import { codeInput, csrfField, errorSummary, type FieldErrors, layout, newSecretForm, type PanelPage, type SignedInChrome } from './page-kit';

/** The hosted checkout's settings (issue 27): signed forms on or off, and a new signing secret; each asks a fresh code. */
export function checkoutPage(
  view: { required: boolean; hasSecret: boolean; mayManage: boolean; message?: string; errors?: FieldErrors; secret?: string; notice?: string },
  chrome: SignedInChrome,
): PanelPage {
  const shown = view.secret
    ? `<p role="status" id="notice">${escapeHtml(view.notice ?? '')}</p>
<dl><dt>Segredo de assinatura do checkout</dt><dd class="secret" id="checkout-secret">${escapeHtml(view.secret)}</dd></dl>
<p>Ele aparece só agora: o serviço não o guarda. Mantenha-o no seu servidor (nunca numa página) e assine cada formulário do checkout com ele.</p>`
    : view.notice
      ? `<p role="status" id="notice">${escapeHtml(view.notice)}</p>`
      : '';
  const forms = view.mayManage
    ? `<form method="post" action="/panel/checkout" novalidate>
${csrfField(chrome.csrfToken)}
<h2>Formulários assinados</h2>
<label for="require">Exigir formulários assinados no checkout</label>
<select id="require" name="require"><option value="on"${view.required ? ' selected' : ''}>Sim: um formulário sem assinatura válida é recusado</option><option value="off"${view.required ? '' : ' selected'}>Não</option></select>
${codeInput(view.errors)}
<button type="submit">Salvar</button>
</form>
${newSecretForm({ action: '/panel/checkout/segredo', csrfToken: chrome.csrfToken, whoUpdates: 'servidor' })}`
    : '<p>Seu papel não permite mudar o checkout.</p>';
  return layout(
    'Checkout',
    `<h1>Checkout</h1>
<div class="box wide">
${shown}
${errorSummary(view.message, view.errors)}
<dl><dt>Formulários assinados</dt><dd id="checkout-signing">${view.required ? 'exigidos' : 'opcionais'}</dd><dt>Segredo</dt><dd id="checkout-secret-state">${view.hasSecret ? 'emitido' : 'nenhum'}</dd></dl>
${forms}
</div>`,
    chrome,
  );
}

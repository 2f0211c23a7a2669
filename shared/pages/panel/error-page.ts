import { escapeHtml } from '../kit/html';
import { type FieldErrors, layout, type PanelPage } from './page-kit';

/** The panel's error page: the status's title, the message, the fields named (no account data). */
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

import { type CheckoutField } from './form';
import { checkoutSecurityHeaders, cspHash, escapeHtml, formatBrl } from '../kit/html';
import { CHARGE_LABELS, type CheckoutPaymentType } from '../../domain/payment-methods';

/**
 * The hosted checkout's server-rendered pages, in pt-BR: pure functions from values to HTML and the
 * page's security headers. User values reach the HTML only through escapeHtml, in element text and
 * double-quoted attributes. Each page has at most ONE inline script and ONE inline style, both
 * constant texts, allowed by their sha256 in the Content-Security-Policy (no 'unsafe-inline').
 */

/** `headers`: checkoutSecurityHeaders with the hashes of the page's own script and style. */
export type PageResult = { html: string; headers: Record<string, string> };

export type CardNotice = { kind: 'declined' | 'unknown' | 'error'; message: string };

export type CardFieldName =
  'creditcard_holder' | 'creditcard_number' | 'creditcard_cvv' | 'creditcard_month' | 'creditcard_year' | 'creditcard_brand' | 'installments';

export type CheckoutPageView = {
  reference: string;
  merchantName: string;
  title: string;
  quantity: number;
  unitAmountCents: number;
  totalCents: number;
  payerName: string;
  /** The page with payment options. */
  status: 'PENDING' | 'UNKNOWN';
  /** Present when Pix is enabled. */
  pix?: { copy: string; qrDataUri?: string };
  card?: {
    /** The form's POST URL (a relative path). */
    action: string;
    csrfToken: string;
    /** The installments offered, 1..installmentsMax (never more installments than cents). */
    installmentsMax: number;
    /** What the payer typed, to refill the form after an error: never the number or the CVV. */
    values?: { holder?: string; month?: string; year?: string; brand?: string; installments?: string };
    fieldErrors?: Partial<Record<CardFieldName, string[]>>;
    notice?: CardNotice;
    /** The card form is locked (too many declined attempts: issue 31): this message instead of the form. */
    locked?: string;
  };
  /** Relative URL the page's script polls (GET → {"status","redirect_url"}). */
  statusUrl: string;
  /** Origin of the merchant's callback_url: the card post answers 303 there, so CSP form-action must allow it. */
  callbackOrigin: string;
};

export type ReceiptView = {
  merchantName: string;
  title: string;
  quantity: number;
  totalCents: number;
  /** ISO 8601 instant. */
  paidAt: string;
  paymentType: CheckoutPaymentType | null;
  /** The full URL back to the merchant, with ?tx_ref=…&status=…; http(s) only. */
  callbackUrl: string;
};

export type ErrorPageView = {
  status: 400 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500 | 502 | 503;
  /** Replaces the status's default explanation. */
  message?: string;
  /** Field name → messages, listed with a pt-BR label for the known fields. */
  fieldErrors?: Record<string, string[]>;
};

export const CARD_BRAND_OPTIONS: ReadonlyArray<{ value: string; label: string }> = [
  { value: 'visa', label: 'Visa' },
  { value: 'mastercard', label: 'Mastercard' },
  { value: 'amex', label: 'American Express' },
  { value: 'elo', label: 'Elo' },
  { value: 'hipercard', label: 'Hipercard' },
  { value: 'diners', label: 'Diners Club' },
  { value: 'discover', label: 'Discover' },
  { value: 'jcb', label: 'JCB' },
];

const CARD_FIELD_MESSAGES: Readonly<Record<CardFieldName, string>> = {
  creditcard_holder: 'Informe o nome impresso no cartão',
  creditcard_number: 'Número do cartão inválido',
  creditcard_cvv: 'Código de segurança (CVV) inválido',
  creditcard_month: 'Mês de validade inválido',
  creditcard_year: 'Ano de validade inválido ou cartão vencido',
  creditcard_brand: 'Bandeira inválida ou diferente da do cartão',
  installments: 'Número de parcelas inválido',
};

/** A pt-BR message for a bad card field, by its form name; a generic one for any other name. */
export function cardFieldMessage(field: string): string {
  return Object.hasOwn(CARD_FIELD_MESSAGES, field) ? CARD_FIELD_MESSAGES[field as CardFieldName] : 'Campo inválido';
}

/** pt-BR labels of the entry form's fields (POST /ext_transfer) and of the card form's, for error lists. */
const FIELD_LABELS: Readonly<Record<CheckoutField | CardFieldName, string>> = {
  public_key: 'Chave pública',
  tx_ref: 'Referência da transação',
  callback_url: 'URL de retorno',
  title: 'Título',
  quantity: 'Quantidade',
  amount: 'Valor unitário',
  email: 'E-mail',
  first_name: 'Nome',
  last_name: 'Sobrenome',
  product_reference: 'Referência do produto',
  product_name: 'Nome do produto',
  signature: 'Assinatura',
  creditcard_holder: 'Nome do titular',
  creditcard_number: 'Número do cartão',
  creditcard_cvv: 'Código de segurança (CVV)',
  creditcard_month: 'Mês de validade',
  creditcard_year: 'Ano de validade',
  creditcard_brand: 'Bandeira',
  installments: 'Parcelas',
};

/**
 * The page's only style. Fluid, one column, never wider than the screen (readable at 360 px), a visible
 * focus ring on every control.
 */
const STYLE = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#f3f4f6;color:#111827;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
main{width:100%;max-width:30rem;margin:0 auto;padding:1rem}
section,.box{background:#fff;border:1px solid #d1d5db;border-radius:.5rem;padding:1rem;margin:0 0 1rem}
h1{font-size:1.375rem;margin:0 0 .25rem;overflow-wrap:anywhere}
h2{font-size:1.125rem;margin:0 0 .75rem}
p{margin:0 0 .75rem;overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:fit-content(45%) minmax(0,1fr);gap:.25rem .75rem;margin:0}
dt{color:#4b5563}
dd{margin:0;overflow-wrap:anywhere;min-width:0}
.total{font-size:1.25rem;font-weight:700;white-space:nowrap}
label,legend{display:block;font-weight:600;margin:.75rem 0 .25rem;padding:0}
fieldset{border:0;margin:0;padding:0;min-width:0}
fieldset label{font-weight:400;margin-top:.25rem}
input,select,textarea,button{font:inherit;max-width:100%}
input,select,textarea{display:block;width:100%;padding:.625rem;border:1px solid #6b7280;border-radius:.375rem;background:#fff;color:inherit}
textarea{resize:vertical;min-height:6rem;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.875rem;word-break:break-all}
.row{display:flex;flex-wrap:wrap;gap:0 .75rem}
.row>div{flex:1 1 7rem;min-width:0}
button,.button{display:inline-block;width:100%;margin-top:1rem;padding:.75rem 1rem;border:0;border-radius:.375rem;background:#1d4ed8;color:#fff;font-weight:700;text-align:center;text-decoration:none;cursor:pointer}
button.secondary{background:#e5e7eb;color:#111827}
button:disabled{opacity:.6;cursor:wait}
input:focus-visible,select:focus-visible,textarea:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
[aria-invalid="true"]{border-color:#b91c1c;border-width:2px}
.qr{display:block;width:100%;max-width:15rem;height:auto;margin:0 auto;image-rendering:pixelated}
.status{font-weight:600}
.notice{padding:.75rem;border-radius:.375rem;border:1px solid #b91c1c;background:#fef2f2;color:#7f1d1d}
.notice-unknown{border-color:#b45309;background:#fffbeb;color:#78350f}
.field-error{color:#b91c1c;margin:.25rem 0 0;font-size:.9375rem}
.muted{color:#4b5563;font-size:.9375rem}
ul{padding-left:1.25rem;margin:0 0 .75rem}
li{overflow-wrap:anywhere}
code{font-size:.875rem}`;

/**
 * The checkout page's only script, constant (its hash is in the CSP). It reads data-status-url and
 * data-status on <body>; while the status is PENDING or UNKNOWN it polls the status URL every 3 s and
 * shows the status in #status; on PAID with a redirect_url (http or https only) it goes there. The copy
 * button copies #pix-copy (Clipboard API, else selection and execCommand). The card form's button is
 * disabled once submitted, against a double charge by a double click. ASCII only (non-ASCII through
 * escapes), so that its hash cannot depend on an encoding.
 */
const SCRIPT = `(function () {
  'use strict';
  var body = document.body;
  var statusUrl = body.getAttribute('data-status-url');
  var current = body.getAttribute('data-status');
  var statusText = document.getElementById('status');
  var texts = {
    PENDING: 'Aguardando pagamento',
    UNKNOWN: 'Verificando o pagamento\\u2026',
    PAID: 'Pagamento confirmado',
    ABANDONED: 'Este pagamento expirou'
  };
  var payButton = document.getElementById('pay-card');
  var payLabel = payButton ? payButton.textContent : '';

  function show(status) {
    if (statusText && Object.prototype.hasOwnProperty.call(texts, status)) statusText.textContent = texts[status];
  }

  function httpUrl(value) {
    if (typeof value !== 'string' || value === '') return null;
    try {
      var url = new URL(value, window.location.href);
      return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
    } catch (error) {
      return null;
    }
  }

  function schedule() {
    window.setTimeout(poll, 3000);
  }

  function poll() {
    window
      .fetch(statusUrl, { headers: { Accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' })
      .then(function (response) {
        if (!response.ok) throw new Error('status ' + response.status);
        return response.json();
      })
      .then(function (answer) {
        var status = answer && typeof answer.status === 'string' ? answer.status : current;
        if (status !== current && Object.prototype.hasOwnProperty.call(texts, status)) {
          current = status;
          show(status);
        }
        if (status === 'PAID') {
          if (payButton) payButton.disabled = true;
          var target = httpUrl(answer.redirect_url);
          if (target) window.location.assign(target);
          return;
        }
        if (status === 'ABANDONED') {
          if (payButton) payButton.disabled = true;
          return;
        }
        schedule();
      })
      .catch(function () {
        schedule();
      });
  }

  if (statusUrl && (current === 'PENDING' || current === 'UNKNOWN')) schedule();

  var copyButton = document.getElementById('copy-pix');
  var copyField = document.getElementById('pix-copy');
  if (copyButton && copyField) {
    var copyLabel = copyButton.textContent;
    var copyTimer = null;
    var say = function (text) {
      copyButton.textContent = text;
      if (copyTimer !== null) window.clearTimeout(copyTimer);
      copyTimer = window.setTimeout(function () {
        copyButton.textContent = copyLabel;
      }, 4000);
    };
    var select = function () {
      copyField.focus();
      copyField.select();
      var copied = false;
      try {
        copied = document.execCommand('copy');
      } catch (error) {
        copied = false;
      }
      say(copied ? 'Copiado!' : 'C\\u00f3digo selecionado: copie-o');
    };
    copyButton.addEventListener('click', function () {
      if (navigator.clipboard && typeof navigator.clipboard.writeText === 'function') {
        navigator.clipboard.writeText(copyField.value).then(function () {
          say('Copiado!');
        }, select);
      } else {
        select();
      }
    });
  }

  var cardForm = document.getElementById('card-form');
  if (cardForm && payButton) {
    cardForm.addEventListener('submit', function () {
      payButton.disabled = true;
      payButton.textContent = 'Processando\\u2026';
    });
    window.addEventListener('pageshow', function () {
      if (current === 'PENDING' || current === 'UNKNOWN') {
        payButton.disabled = false;
        payButton.textContent = payLabel;
      }
    });
  }
})();`;

// Pure: a function that renders only the pages without the card form (the error pages) bundles no script.
const SCRIPT_HASH = /* @__PURE__ */ cspHash(SCRIPT);
const STYLE_HASH = cspHash(STYLE);

const STATUS_TEXT: Readonly<Record<CheckoutPageView['status'], string>> = {
  PENDING: 'Aguardando pagamento',
  UNKNOWN: 'Verificando o pagamento…',
};

/** A page; `script`: the card form's script, on the checkout page only. */
type Document = { title: string; body: string; bodyAttributes?: string; script?: string };

function page(doc: Document): string {
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>${escapeHtml(doc.title)}</title>
<style>${STYLE}</style>
</head>
<body${doc.bodyAttributes ?? ''}>
<main>
${doc.body}
</main>
${doc.script === undefined ? '' : `<script>${doc.script}</script>\n`}</body>
</html>
`;
}

function headers(scriptHashes: readonly string[] = [], formActionOrigins: readonly string[] = []): Record<string, string> {
  return checkoutSecurityHeaders([...scriptHashes], { styleHashes: [STYLE_HASH], formActionOrigins });
}

function wholeCount(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

function summary(merchantName: string, title: string, quantity: number, totalCents: number, extra = ''): string {
  return `<header class="box">
<p class="muted">Pagamento para</p>
<h1 id="merchant">${escapeHtml(merchantName)}</h1>
<dl>
<dt>Produto</dt><dd id="title">${escapeHtml(title)}</dd>
<dt>Quantidade</dt><dd id="quantity">${wholeCount(quantity, 'quantity')}</dd>
${extra}<dt>Total</dt><dd id="total" class="total">${formatBrl(totalCents)}</dd>
</dl>
</header>`;
}

function checkedDataImage(uri: string): string {
  if (!/^data:image\/[a-z0-9.+-]+[;,]/i.test(uri)) throw new Error('The Pix QR code must be a data:image URI');
  return uri;
}

function pixSection(pix: NonNullable<CheckoutPageView['pix']>): string {
  return `<section id="pix" aria-labelledby="pix-heading">
<h2 id="pix-heading">Pagar com Pix</h2>
<p>Abra o app do seu banco, escolha Pix e leia o QR Code ou cole o código abaixo.</p>
${pix.qrDataUri === undefined ? '' : `<img id="pix-qr" class="qr" alt="QR Code Pix" width="240" height="240" src="${escapeHtml(checkedDataImage(pix.qrDataUri))}">`}
<label for="pix-copy">Pix copia e cola</label>
<textarea id="pix-copy" readonly rows="5" spellcheck="false">${escapeHtml(pix.copy)}</textarea>
<button type="button" id="copy-pix" class="secondary">Copiar código</button>
</section>`;
}

/** "3x de R$ 5,00"; when the total does not split evenly, the first installments carry a cent more. */
function installmentLabel(totalCents: number, count: number): string {
  const base = Math.floor(totalCents / count);
  const larger = totalCents - base * count;
  if (larger === 0) return `${count}x de ${formatBrl(base)}`;
  return `${count}x: ${larger}x de ${formatBrl(base + 1)} + ${count - larger}x de ${formatBrl(base)}`;
}

type CardForm = NonNullable<CheckoutPageView['card']>;

function fieldErrorIds(field: CardFieldName, errors: CardForm['fieldErrors']): { attributes: string; html: string } {
  const messages = errors?.[field] ?? [];
  if (messages.length === 0) return { attributes: '', html: '' };
  const id = `${field}-error`;
  return {
    attributes: ` aria-invalid="true" aria-describedby="${id}"`,
    html: `\n<p id="${id}" class="field-error">${messages.map(escapeHtml).join('<br>')}</p>`,
  };
}

function input(field: CardFieldName, label: string, attributes: string, value: string | undefined, errors: CardForm['fieldErrors']): string {
  const error = fieldErrorIds(field, errors);
  const valueAttribute = value === undefined ? '' : ` value="${escapeHtml(value)}"`;
  return `<label for="${field}">${label}</label>
<input id="${field}" name="${field}"${attributes}${valueAttribute}${error.attributes}>${error.html}`;
}

/** The card number and CVV: never a value attribute, whatever the caller holds. */
function secretInput(field: 'creditcard_number' | 'creditcard_cvv', label: string, attributes: string, errors: CardForm['fieldErrors']): string {
  return input(field, label, attributes, undefined, errors);
}

function select(
  field: CardFieldName,
  label: string,
  options: ReadonlyArray<{ value: string; label: string }>,
  chosen: string | undefined,
  errors: CardForm['fieldErrors'],
): string {
  const error = fieldErrorIds(field, errors);
  const items = options
    .map((option) => `<option value="${escapeHtml(option.value)}"${option.value === chosen ? ' selected' : ''}>${escapeHtml(option.label)}</option>`)
    .join('\n');
  return `<label for="${field}">${label}</label>
<select id="${field}" name="${field}" required${error.attributes}>
${items}
</select>${error.html}`;
}

function cardSection(card: CardForm, totalCents: number): string {
  if (card.locked !== undefined) {
    return `<section id="card" aria-labelledby="card-heading">
<h2 id="card-heading">Pagar com cartão de crédito</h2>
<p id="card-notice" role="alert" class="notice">${escapeHtml(card.locked)}</p>
</section>`;
  }
  const values = card.values ?? {};
  const errors = card.fieldErrors;
  const count = Math.min(wholeCount(card.installmentsMax, 'installmentsMax'), totalCents);
  const installments = Array.from({ length: Math.max(count, 1) }, (_, index) => ({ value: String(index + 1), label: installmentLabel(totalCents, index + 1) }));
  const brands = [{ value: '', label: 'Selecione a bandeira' }, ...CARD_BRAND_OPTIONS];
  const notice = card.notice ? `<p id="card-notice" role="alert" class="notice notice-${card.notice.kind}">${escapeHtml(card.notice.message)}</p>\n` : '';
  return `<section id="card" aria-labelledby="card-heading">
<h2 id="card-heading">Pagar com cartão de crédito</h2>
${notice}<form id="card-form" method="post" action="${escapeHtml(card.action)}" autocomplete="on">
<input type="hidden" name="csrf_token" value="${escapeHtml(card.csrfToken)}">
${input('creditcard_holder', 'Nome impresso no cartão', ' type="text" autocomplete="cc-name" maxlength="100" spellcheck="false" required', values.holder, errors)}
${secretInput('creditcard_number', 'Número do cartão', ' type="text" inputmode="numeric" autocomplete="cc-number" maxlength="23" spellcheck="false" required', errors)}
<fieldset>
<legend>Validade</legend>
<div class="row">
<div>
${input('creditcard_month', 'Mês (MM)', ' type="text" inputmode="numeric" autocomplete="cc-exp-month" maxlength="2" placeholder="MM" required', values.month, errors)}
</div>
<div>
${input('creditcard_year', 'Ano (AAAA)', ' type="text" inputmode="numeric" autocomplete="cc-exp-year" maxlength="4" placeholder="AAAA" required', values.year, errors)}
</div>
</div>
</fieldset>
${secretInput('creditcard_cvv', 'Código de segurança (CVV)', ' type="text" inputmode="numeric" autocomplete="cc-csc" maxlength="4" spellcheck="false" required', errors)}
${select('creditcard_brand', 'Bandeira', brands, values.brand, errors)}
${select('installments', 'Parcelas', installments, values.installments, errors)}
<button type="submit" id="pay-card">Pagar ${formatBrl(totalCents)}</button>
</form>
</section>`;
}

/** The payer's page with the enabled payment options and a status that updates itself. */
export function renderCheckoutPage(view: CheckoutPageView): PageResult {
  const payer = `<dt>Pagador</dt><dd id="payer">${escapeHtml(view.payerName)}</dd>\n`;
  const unknownNote =
    view.status === 'UNKNOWN' ? '\n<p class="muted">Estamos confirmando com a operadora uma tentativa de pagamento. Aguarde antes de tentar de novo.</p>' : '';
  const methods = [view.pix ? pixSection(view.pix) : '', view.card ? cardSection(view.card, view.totalCents) : ''].filter((part) => part !== '');
  const none = methods.length === 0 ? '<p>Nenhuma forma de pagamento está disponível.</p>\n' : '';
  const body = `${summary(view.merchantName, view.title, view.quantity, view.totalCents, payer)}
<div class="box">
<p id="status" class="status" role="status" aria-live="polite">${STATUS_TEXT[view.status]}</p>${unknownNote}
<noscript><p class="muted">Atualize a página para ver se o pagamento foi confirmado.</p></noscript>
<p class="muted">Referência: <span id="reference">${escapeHtml(view.reference)}</span></p>
</div>
${none}${methods.join('\n')}`;
  return {
    html: page({
      title: `Pagamento: ${view.title} · ${view.merchantName}`,
      body,
      bodyAttributes: ` data-status-url="${escapeHtml(view.statusUrl)}" data-status="${escapeHtml(view.status)}"`,
      script: SCRIPT,
    }),
    headers: headers([SCRIPT_HASH], [view.callbackOrigin]),
  };
}

const PAYMENT_TYPE_LABELS: Readonly<Record<CheckoutPaymentType, string>> = CHARGE_LABELS;

/** "23/11/2026 às 14:05 (horário de Brasília)": Brazil keeps UTC−3 all year since 2019. */
function brasiliaTime(iso: string): string {
  const instant = Date.parse(iso);
  if (Number.isNaN(instant)) throw new Error('paidAt must be an ISO 8601 instant');
  const local = new Date(instant - 3 * 60 * 60 * 1000);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(local.getUTCDate())}/${two(local.getUTCMonth() + 1)}/${local.getUTCFullYear()} às ${two(local.getUTCHours())}:${two(local.getUTCMinutes())} (horário de Brasília)`;
}

function checkedHttpUrl(url: string): string {
  if (!URL.canParse(url) || !['https:', 'http:'].includes(new URL(url).protocol)) throw new Error('callbackUrl must be an http(s) URL');
  return url;
}

/** "Pagamento confirmado", with a link back to the merchant's callback URL. */
export function renderReceiptPage(view: ReceiptView): PageResult {
  const paidAt = `<dt>Pago em</dt><dd id="paid-at">${brasiliaTime(view.paidAt)}</dd>\n`;
  const method = view.paymentType ? `<dt>Forma de pagamento</dt><dd id="payment-type">${PAYMENT_TYPE_LABELS[view.paymentType]}</dd>\n` : '';
  const body = `<div class="box">
<p id="status" class="status" role="status">Pagamento confirmado</p>
<p>Obrigado! O seu pagamento foi recebido.</p>
</div>
${summary(view.merchantName, view.title, view.quantity, view.totalCents, paidAt + method)}
<a id="back" class="button" href="${escapeHtml(checkedHttpUrl(view.callbackUrl))}">Voltar à loja</a>`;
  return { html: page({ title: `Pagamento confirmado · ${view.merchantName}`, body }), headers: headers() };
}

/** The page of a checkout not paid within its time. */
export function renderAbandonedPage(view: { merchantName: string; title: string }): PageResult {
  const body = `<header class="box">
<p class="muted">Pagamento para</p>
<h1 id="merchant">${escapeHtml(view.merchantName)}</h1>
<dl>
<dt>Produto</dt><dd id="title">${escapeHtml(view.title)}</dd>
</dl>
</header>
<div class="box">
<p id="status" class="status" role="status">Este pagamento expirou</p>
<p>O prazo para pagar terminou e nenhuma cobrança foi feita. Volte à loja e faça o pedido de novo.</p>
</div>`;
  return { html: page({ title: `Este pagamento expirou · ${view.merchantName}`, body }), headers: headers() };
}

const ERROR_TEXTS: Readonly<Record<ErrorPageView['status'], { title: string; message: string }>> = {
  400: { title: 'Não foi possível iniciar o pagamento', message: 'O pedido de pagamento não pôde ser aceito. Volte à loja e tente de novo.' },
  403: { title: 'Acesso negado', message: 'Este formulário expirou ou não é válido. Recarregue a página de pagamento e tente de novo.' },
  404: { title: 'Página não encontrada', message: 'Este pagamento não existe ou o endereço está incorreto.' },
  409: { title: 'Pagamento já existente', message: 'Já existe um pagamento com esta referência e com outros valores.' },
  410: { title: 'Pagamento indisponível', message: 'Este pagamento não está mais disponível.' },
  413: { title: 'Dados grandes demais', message: 'Os dados enviados excedem o tamanho permitido.' },
  422: { title: 'Dados inválidos', message: 'Alguns campos do pedido de pagamento estão inválidos.' },
  429: { title: 'Muitas tentativas', message: 'Aguarde um momento e tente de novo.' },
  500: { title: 'Erro interno', message: 'Algo deu errado do nosso lado. Tente de novo em instantes.' },
  502: { title: 'Falha na comunicação com a operadora', message: 'A operadora de pagamento não respondeu. Tente de novo em instantes.' },
  503: { title: 'Serviço indisponível', message: 'O serviço está temporariamente indisponível. Tente de novo em instantes.' },
};

function fieldLabel(field: string): string {
  const label = Object.hasOwn(FIELD_LABELS, field) ? FIELD_LABELS[field as CheckoutField | CardFieldName] : undefined;
  return label === undefined ? `<code>${escapeHtml(field)}</code>` : `${label} (<code>${escapeHtml(field)}</code>)`;
}

/** A page for a refused request: a pt-BR title per status, each bad field with its label; never internals. */
export function renderErrorPage(view: ErrorPageView): PageResult {
  const text = ERROR_TEXTS[view.status];
  const fields = Object.entries(view.fieldErrors ?? {}).filter(([, messages]) => messages.length > 0);
  const list =
    fields.length === 0
      ? ''
      : `\n<ul id="field-errors">\n${fields
          .map(([field, messages]) => `<li data-field="${escapeHtml(field)}">${fieldLabel(field)}: ${messages.map(escapeHtml).join('; ')}</li>`)
          .join('\n')}\n</ul>`;
  const body = `<div class="box">
<h1 id="error-title">${text.title}</h1>
<p id="error-message">${escapeHtml(view.message ?? text.message)}</p>${list}
<p class="muted">Código do erro: ${view.status}</p>
</div>`;
  return { html: page({ title: text.title, body }), headers: headers() };
}

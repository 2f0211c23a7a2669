import { Script, createContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { normalizeBrand } from '../../../../shared/domain/card';
import { CHECKOUT_FIELDS } from '../../../../shared/pages/checkout/form';
import {
  CARD_BRAND_OPTIONS,
  cardFieldMessage,
  type CheckoutPageView,
  type ErrorPageView,
  type PageResult,
  type ReceiptView,
  renderAbandonedPage,
  renderCheckoutPage,
  renderErrorPage,
  renderReceiptPage,
} from '../../../../shared/pages/checkout/page';
import { cspHash, escapeHtml } from '../../../../shared/pages/kit/html';

// ---------------------------------------------------------------------------------------------
// A strict reader of the pages' HTML: every '<' outside the one script and the one style must open a
// well-formed tag of a known element with known, double-quoted attributes. Markup injected through a
// user value would add a tag, an attribute or a raw character somewhere and fail it.
// ---------------------------------------------------------------------------------------------

type Tag = { name: string; closing: boolean; attributes: Map<string, string | true> };

const ELEMENTS = new Set(
  'html head meta link title style body main header p h1 h2 dl dt dd div span section img label textarea button form fieldset legend input select option noscript script a ul li code br'.split(
    ' ',
  ),
);
const ATTRIBUTES = new Set(
  [
    'lang charset name content rel href data-status-url data-status class id role aria-live aria-labelledby alt width height src for readonly rows',
    'spellcheck type method action autocomplete value inputmode maxlength placeholder required aria-invalid aria-describedby selected data-field',
  ]
    .join(' ')
    .split(' '),
);

function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#96);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#96': '`' })[name] ?? '');
}

/** The texts of the raw-text elements (script, style) of a page. */
function rawTexts(html: string, element: 'script' | 'style'): string[] {
  return [...html.matchAll(new RegExp(`<${element}>([\\s\\S]*?)</${element}>`, 'g'))].map((match) => match[1] ?? '');
}

/** Reads a page strictly (see above); throws on anything unexpected. Returns its tags and its texts. */
function readPage(html: string): { tags: Tag[]; texts: string[] } {
  const rest = html.replace(/<(script|style)>[\s\S]*?<\/\1>/g, '<$1></$1>');
  expect(rest.startsWith('<!doctype html>\n')).toBe(true);
  const tags: Tag[] = [];
  const texts: string[] = [];
  const tagPattern = /^<(\/?)([a-z][a-z0-9]*)((?:\s+[a-z][a-z0-9-]*(?:="[^"]*")?)*)\s*>/;
  let position = '<!doctype html>'.length;
  while (position < rest.length) {
    const next = rest.indexOf('<', position);
    const text = rest.slice(position, next === -1 ? rest.length : next);
    if (/[>"`]/.test(text)) throw new Error(`A raw > " or \` in text: ${JSON.stringify(text)}`);
    if (/&(?!(amp|lt|gt|quot|#39|#96);)/.test(text)) throw new Error(`A bare & in text: ${JSON.stringify(text)}`);
    texts.push(decode(text));
    if (next === -1) break;
    const match = tagPattern.exec(rest.slice(next));
    if (!match) throw new Error(`Not a well-formed tag at ${JSON.stringify(rest.slice(next, next + 80))}`);
    const [whole, slash, name = '', attributeText = ''] = match;
    if (!ELEMENTS.has(name)) throw new Error(`Unexpected element <${name}>`);
    const attributes = new Map<string, string | true>();
    for (const attribute of attributeText.matchAll(/\s+([a-z][a-z0-9-]*)(?:="([^"]*)")?/g)) {
      const [, attributeName = '', value] = attribute;
      if (!ATTRIBUTES.has(attributeName)) throw new Error(`Unexpected attribute ${attributeName} on <${name}>`);
      if (attributes.has(attributeName)) throw new Error(`Attribute ${attributeName} twice on <${name}>`);
      if (value !== undefined && /[<>'`]/.test(value)) throw new Error(`A raw < > ' or \` in ${attributeName}=${JSON.stringify(value)}`);
      if (value !== undefined && /&(?!(amp|lt|gt|quot|#39|#96);)/.test(value)) throw new Error(`A bare & in ${attributeName}`);
      attributes.set(attributeName, value === undefined ? true : decode(value));
    }
    tags.push({ name, closing: slash === '/', attributes });
    position = next + whole.length;
  }
  return { tags, texts };
}

function openTags(html: string, name?: string): Tag[] {
  return readPage(html).tags.filter((tag) => !tag.closing && (name === undefined || tag.name === name));
}

function byId(html: string, id: string): Tag {
  const found = openTags(html).filter((tag) => tag.attributes.get('id') === id);
  if (found.length !== 1) throw new Error(`${found.length} elements with id ${id}`);
  return found[0] as Tag;
}

function byName(html: string, name: string): Tag {
  const found = openTags(html).filter((tag) => tag.attributes.get('name') === name);
  if (found.length !== 1) throw new Error(`${found.length} elements named ${name}`);
  return found[0] as Tag;
}

/** The decoded text content of the element with that id (flat: the text up to its closing tag). */
function textOf(html: string, id: string): string {
  const match = new RegExp(`<([a-z0-9]+)[^>]*\\sid="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  if (!match) throw new Error(`No element with id ${id}`);
  return decode((match[2] ?? '').replace(/<[^>]*>/g, ''));
}

function directive(result: PageResult, name: string): string {
  const policy = result.headers['Content-Security-Policy'] ?? '';
  const found = policy.split('; ').find((part) => part.startsWith(`${name} `));
  if (found === undefined) throw new Error(`No ${name} in ${policy}`);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

const QR = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function checkoutView(overrides: Partial<CheckoutPageView> = {}): CheckoutPageView {
  return {
    reference: 'CHK-ABCD2345',
    merchantName: 'Loja da Ana',
    title: 'Camiseta azul',
    quantity: 3,
    unitAmountCents: 41_152,
    totalCents: 123_456,
    payerName: 'Ana Souza',
    status: 'PENDING',
    pix: { copy: '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR', qrDataUri: QR },
    card: { action: '/checkout/CHK-ABCD2345/tok/card', csrfToken: 'csrf-token-value', installmentsMax: 3 },
    statusUrl: '/checkout/CHK-ABCD2345/tok/status',
    callbackOrigin: 'https://shop.example',
    ...overrides,
  };
}

function receiptView(overrides: Partial<ReceiptView> = {}): ReceiptView {
  return {
    merchantName: 'Loja da Ana',
    title: 'Camiseta azul',
    quantity: 2,
    totalCents: 2_100,
    paidAt: '2026-11-23T17:05:00.000Z',
    paymentType: 'pix',
    callbackUrl: 'https://shop.example/paid?tx_ref=order_42&status=PAID',
    ...overrides,
  };
}

/** Markup that would run or break out of an attribute if it were not escaped. */
const PAYLOAD = `"'><script>alert(1)</script><img src=x onerror=alert(2)>\`&amp;<!--`;
const tagged = (field: string) => `${field}:${PAYLOAD}`;

const ALL_STATUSES: ErrorPageView['status'][] = [400, 403, 404, 409, 410, 413, 422, 429, 500, 502, 503];

// ---------------------------------------------------------------------------------------------

describe('markup injection stays inert', () => {
  /** The page reads strictly, has no script but its own, and holds `value` decoded as one text or attribute. */
  function expectInert(result: PageResult, scripts: number) {
    const { html } = result;
    expect(html.match(/<script/gi) ?? []).toHaveLength(scripts);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<!--');
    const tags = openTags(html);
    for (const tag of tags) for (const name of tag.attributes.keys()) expect(name.startsWith('on')).toBe(false);
  }

  const textFields: ReadonlyArray<[string, (value: string) => CheckoutPageView, (html: string) => string]> = [
    ['merchantName', (value) => checkoutView({ merchantName: value }), (html) => textOf(html, 'merchant')],
    ['title', (value) => checkoutView({ title: value }), (html) => textOf(html, 'title')],
    ['payerName', (value) => checkoutView({ payerName: value }), (html) => textOf(html, 'payer')],
    ['reference', (value) => checkoutView({ reference: value }), (html) => textOf(html, 'reference')],
    ['pix.copy', (value) => checkoutView({ pix: { copy: value, qrDataUri: QR } }), (html) => textOf(html, 'pix-copy')],
    [
      'card.notice.message',
      (value) => checkoutView({ card: { ...checkoutView().card!, notice: { kind: 'declined', message: value } } }),
      (html) => textOf(html, 'card-notice'),
    ],
    [
      'card.fieldErrors',
      (value) => checkoutView({ card: { ...checkoutView().card!, fieldErrors: { creditcard_number: [value] } } }),
      (html) => textOf(html, 'creditcard_number-error'),
    ],
  ];

  it.each(textFields)('in %s: shown as text, exactly', (field, view, read) => {
    const result = renderCheckoutPage(view(tagged(field)));
    expectInert(result, 1);
    expect(read(result.html)).toBe(tagged(field));
  });

  const attributeFields: ReadonlyArray<[string, (value: string) => CheckoutPageView, (html: string) => string | true | undefined]> = [
    ['statusUrl', (value) => checkoutView({ statusUrl: value }), (html) => openTags(html, 'body')[0]?.attributes.get('data-status-url')],
    ['card.action', (value) => checkoutView({ card: { ...checkoutView().card!, action: value } }), (html) => byId(html, 'card-form').attributes.get('action')],
    [
      'card.csrfToken',
      (value) => checkoutView({ card: { ...checkoutView().card!, csrfToken: value } }),
      (html) => byName(html, 'csrf_token').attributes.get('value'),
    ],
    [
      'card.values.holder',
      (value) => checkoutView({ card: { ...checkoutView().card!, values: { holder: value } } }),
      (html) => byName(html, 'creditcard_holder').attributes.get('value'),
    ],
    [
      'card.values.month',
      (value) => checkoutView({ card: { ...checkoutView().card!, values: { month: value } } }),
      (html) => byName(html, 'creditcard_month').attributes.get('value'),
    ],
    [
      'card.values.year',
      (value) => checkoutView({ card: { ...checkoutView().card!, values: { year: value } } }),
      (html) => byName(html, 'creditcard_year').attributes.get('value'),
    ],
    ['pix.qrDataUri', (value) => checkoutView({ pix: { copy: 'x', qrDataUri: `${QR}${value}` } }), (html) => byId(html, 'pix-qr').attributes.get('src')],
  ];

  it.each(attributeFields)('in %s: kept whole inside its double-quoted attribute', (field, view, read) => {
    const result = renderCheckoutPage(view(tagged(field)));
    expectInert(result, 1);
    const expected = field === 'pix.qrDataUri' ? `${QR}${tagged(field)}` : tagged(field);
    expect(read(result.html)).toBe(expected);
  });

  it('in card.values.brand and installments: never rendered unless one of the options, so nothing is selected', () => {
    const card = { ...checkoutView().card!, values: { brand: tagged('brand'), installments: tagged('installments') } };
    const { html } = renderCheckoutPage(checkoutView({ card }));
    expect(openTags(html, 'option').filter((tag) => tag.attributes.has('selected'))).toEqual([]);
    expect(html).not.toContain(escapeHtml(tagged('brand')));
    expect(html).not.toContain(escapeHtml(tagged('installments')));
  });

  it('in a field error key the card form does not know: not rendered at all', () => {
    const fieldErrors = { [tagged('key')]: ['x'], creditcard_cvv: [tagged('cvv message')] } as unknown as Partial<Record<'creditcard_cvv', string[]>>;
    const result = renderCheckoutPage(checkoutView({ card: { ...checkoutView().card!, fieldErrors } }));
    expectInert(result, 1);
    expect(result.html).not.toContain(escapeHtml(tagged('key')));
    expect(textOf(result.html, 'creditcard_cvv-error')).toBe(tagged('cvv message'));
  });

  it('in every field of the page at once (and the title element)', () => {
    const view = checkoutView({
      reference: tagged('reference'),
      merchantName: tagged('merchant'),
      title: tagged('title'),
      payerName: tagged('payer'),
      pix: { copy: tagged('copy'), qrDataUri: QR },
      card: {
        action: tagged('action'),
        csrfToken: tagged('csrf'),
        installmentsMax: 2,
        values: { holder: tagged('holder'), month: tagged('month'), year: tagged('year'), brand: tagged('brand'), installments: tagged('inst') },
        fieldErrors: { creditcard_holder: [tagged('e1'), tagged('e2')], installments: [tagged('e3')] },
        notice: { kind: 'error', message: tagged('notice') },
      },
      statusUrl: tagged('status'),
    });
    const result = renderCheckoutPage(view);
    expectInert(result, 1);
    expect(textOf(result.html, 'creditcard_holder-error')).toBe(`${tagged('e1')}${tagged('e2')}`);
    expect(readPage(result.html).texts).toContain(`Pagamento: ${tagged('title')} · ${tagged('merchant')}`);
  });

  it('in the receipt: merchant, title and the callback URL (the link keeps the URL whole)', () => {
    const callbackUrl = `https://shop.example/paid?tx_ref=${PAYLOAD}&status=PAID`;
    const result = renderReceiptPage(receiptView({ merchantName: tagged('merchant'), title: tagged('title'), callbackUrl }));
    expectInert(result, 0);
    expect(textOf(result.html, 'merchant')).toBe(tagged('merchant'));
    expect(textOf(result.html, 'title')).toBe(tagged('title'));
    expect(byId(result.html, 'back').attributes.get('href')).toBe(callbackUrl);
    expect(result.html).toContain(`href="${escapeHtml(callbackUrl)}"`);
  });

  it('in the abandoned page', () => {
    const result = renderAbandonedPage({ merchantName: tagged('merchant'), title: tagged('title') });
    expectInert(result, 0);
    expect(textOf(result.html, 'merchant')).toBe(tagged('merchant'));
    expect(textOf(result.html, 'title')).toBe(tagged('title'));
  });

  it('in the error page: message, field names and field messages', () => {
    const result = renderErrorPage({ status: 422, message: tagged('message'), fieldErrors: { [tagged('field')]: [tagged('m1')], amount: [tagged('m2')] } });
    expectInert(result, 0);
    expect(textOf(result.html, 'error-message')).toBe(tagged('message'));
    const items = openTags(result.html, 'li').map((tag) => tag.attributes.get('data-field'));
    expect(items).toEqual([tagged('field'), 'amount']);
    expect(readPage(result.html).texts.join('')).toContain(tagged('m1'));
  });
});

describe('Content-Security-Policy', () => {
  it("holds the exact hashes of the checkout page's one script and one style, recomputed from its HTML", () => {
    const result = renderCheckoutPage(checkoutView());
    const scripts = rawTexts(result.html, 'script');
    const styles = rawTexts(result.html, 'style');
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    expect(directive(result, 'script-src')).toBe(`script-src ${cspHash(scripts[0] ?? '')}`);
    expect(directive(result, 'style-src')).toBe(`style-src ${cspHash(styles[0] ?? '')}`);
    expect(directive(result, 'form-action')).toBe("form-action 'self' https://shop.example");
    expect(result.headers['Cache-Control']).toBe('no-store');
    expect(directive(result, 'frame-ancestors')).toBe("frame-ancestors 'none'");
  });

  it('hashes the same constant script and style whatever the view', () => {
    const a = renderCheckoutPage(checkoutView());
    const b = renderCheckoutPage(checkoutView({ status: 'UNKNOWN', merchantName: 'Outra', pix: undefined, statusUrl: '/x' }));
    expect(rawTexts(b.html, 'script')).toEqual(rawTexts(a.html, 'script'));
    expect(directive(b, 'script-src')).toBe(directive(a, 'script-src'));
    expect(directive(b, 'style-src')).toBe(directive(a, 'style-src'));
  });

  it('keeps the script ASCII, without eval, inline handlers or third-party URLs', () => {
    const [script = ''] = rawTexts(renderCheckoutPage(checkoutView()).html, 'script');
    expect(script).toMatch(/^[\x20-\x7e\n]*$/);
    expect(script).not.toMatch(/\beval\b|new Function|innerHTML|document\.write|https?:\/\//);
  });

  it.each<[string, PageResult]>([
    ['receipt', renderReceiptPage(receiptView())],
    ['abandoned', renderAbandonedPage({ merchantName: 'Loja', title: 'T' })],
    ['error', renderErrorPage({ status: 500 })],
  ])('the %s page runs no script and allows only its style', (_, result) => {
    expect(rawTexts(result.html, 'script')).toEqual([]);
    expect(directive(result, 'script-src')).toBe("script-src 'none'");
    const styles = rawTexts(result.html, 'style');
    expect(styles).toHaveLength(1);
    expect(directive(result, 'style-src')).toBe(`style-src ${cspHash(styles[0] ?? '')}`);
    expect(directive(result, 'form-action')).toBe("form-action 'self'");
  });

  it('refuses a callback origin that is not an origin (no directive can be smuggled)', () => {
    expect(() => renderCheckoutPage(checkoutView({ callbackOrigin: "https://shop.example; script-src 'unsafe-inline'" }))).toThrow();
    expect(() => renderCheckoutPage(checkoutView({ callbackOrigin: 'https://shop.example/paid' }))).toThrow();
  });
});

describe('the checkout page', () => {
  it('has the document basics: lang, charset, viewport, title', () => {
    const { html } = renderCheckoutPage(checkoutView());
    expect(openTags(html, 'html')[0]?.attributes.get('lang')).toBe('pt-BR');
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(textOf(html, 'merchant')).toBe('Loja da Ana');
    expect(/<title>([^<]+)<\/title>/.exec(html)?.[1]).toBe('Pagamento: Camiseta azul · Loja da Ana');
  });

  it('shows the order with pt-BR amounts from formatBrl, and the pay button with the total', () => {
    const { html } = renderCheckoutPage(checkoutView());
    expect(textOf(html, 'title')).toBe('Camiseta azul');
    expect(textOf(html, 'quantity')).toBe('3');
    expect(textOf(html, 'total')).toBe('R$ 1.234,56');
    expect(textOf(html, 'pay-card')).toBe('Pagar R$ 1.234,56');
    expect(byId(html, 'pay-card').attributes.get('type')).toBe('submit');
  });

  it('offers installments 1..max with labels that add up to the total', () => {
    const { html } = renderCheckoutPage(checkoutView({ card: { ...checkoutView().card!, installmentsMax: 4 } }));
    const options = [...html.matchAll(/<option value="(\d+)"[^>]*>([^<]*)<\/option>/g)].map((match) => [match[1], match[2]]);
    expect(options).toEqual([
      ['1', '1x de R$ 1.234,56'],
      ['2', '2x de R$ 617,28'],
      ['3', '3x de R$ 411,52'],
      ['4', '4x de R$ 308,64'],
    ]);
    const uneven = renderCheckoutPage(checkoutView({ totalCents: 1000, card: { ...checkoutView().card!, installmentsMax: 3 } })).html;
    expect(uneven).toContain('<option value="3">3x: 1x de R$ 3,34 + 2x de R$ 3,33</option>');
  });

  it('never offers an installment of less than one cent', () => {
    const { html } = renderCheckoutPage(checkoutView({ totalCents: 2, card: { ...checkoutView().card!, installmentsMax: 12 } }));
    const select = html.slice(html.indexOf('<select id="installments"'), html.indexOf('</select>', html.indexOf('<select id="installments"')));
    expect(select.match(/<option/g)).toHaveLength(2);
  });

  it('has the Pix block: the QR image, the copy field with its label, the copy button', () => {
    const { html } = renderCheckoutPage(checkoutView());
    expect(byId(html, 'pix').name).toBe('section');
    const qr = byId(html, 'pix-qr');
    expect(qr.name).toBe('img');
    expect(qr.attributes.get('alt')).toBe('QR Code Pix');
    expect(qr.attributes.get('src')).toBe(QR);
    const copy = byId(html, 'pix-copy');
    expect(copy.name).toBe('textarea');
    expect(copy.attributes.get('readonly')).toBe(true);
    expect(textOf(html, 'pix-copy')).toBe(checkoutView().pix?.copy);
    const button = byId(html, 'copy-pix');
    expect([button.name, button.attributes.get('type')]).toEqual(['button', 'button']);
    expect(textOf(html, 'copy-pix')).toBe('Copiar código');
  });

  it('refuses a QR code that is not a data:image URI', () => {
    expect(() => renderCheckoutPage(checkoutView({ pix: { copy: 'x', qrDataUri: 'javascript:alert(1)' } }))).toThrow();
    expect(() => renderCheckoutPage(checkoutView({ pix: { copy: 'x', qrDataUri: 'https://evil.example/qr.png' } }))).toThrow();
  });

  it('shows the status in pt-BR in a polite live region, and gives the script its data', () => {
    const pending = renderCheckoutPage(checkoutView()).html;
    const status = byId(pending, 'status');
    expect([status.name, status.attributes.get('role'), status.attributes.get('aria-live')]).toEqual(['p', 'status', 'polite']);
    expect(textOf(pending, 'status')).toBe('Aguardando pagamento');
    const body = openTags(pending, 'body')[0];
    expect(body?.attributes.get('data-status-url')).toBe('/checkout/CHK-ABCD2345/tok/status');
    expect(body?.attributes.get('data-status')).toBe('PENDING');
    const unknown = renderCheckoutPage(checkoutView({ status: 'UNKNOWN' })).html;
    expect(textOf(unknown, 'status')).toBe('Verificando o pagamento…');
    expect(openTags(unknown, 'body')[0]?.attributes.get('data-status')).toBe('UNKNOWN');
  });

  it('has the card form with the exact names, autocomplete hints, hidden CSRF token', () => {
    const { html } = renderCheckoutPage(checkoutView());
    const form = byId(html, 'card-form');
    expect([form.name, form.attributes.get('method'), form.attributes.get('action'), form.attributes.get('autocomplete')]).toEqual([
      'form',
      'post',
      '/checkout/CHK-ABCD2345/tok/card',
      'on',
    ]);
    expect(byName(html, 'creditcard_holder').attributes.get('autocomplete')).toBe('cc-name');
    const number = byName(html, 'creditcard_number');
    expect([number.name, number.attributes.get('inputmode'), number.attributes.get('autocomplete')]).toEqual(['input', 'numeric', 'cc-number']);
    expect(byName(html, 'creditcard_cvv').attributes.get('autocomplete')).toBe('cc-csc');
    expect(byName(html, 'creditcard_month').name).toBe('input');
    expect(byName(html, 'creditcard_year').name).toBe('input');
    expect(byName(html, 'creditcard_brand').name).toBe('select');
    expect(byName(html, 'installments').name).toBe('select');
    const csrf = byName(html, 'csrf_token');
    expect([csrf.attributes.get('type'), csrf.attributes.get('value')]).toEqual(['hidden', 'csrf-token-value']);
    expect(html).not.toContain('card-notice');
  });

  it('offers the eight brands the gateway accepts, and refills the chosen values after an error', () => {
    expect(CARD_BRAND_OPTIONS.map((option) => option.value)).toEqual(['visa', 'mastercard', 'amex', 'elo', 'hipercard', 'diners', 'discover', 'jcb']);
    for (const option of CARD_BRAND_OPTIONS) expect(normalizeBrand(option.value)).toBe(option.value);
    const values = { holder: 'ANA SOUZA', month: '07', year: '2031', brand: 'elo', installments: '2' };
    const { html } = renderCheckoutPage(checkoutView({ card: { ...checkoutView().card!, values } }));
    expect(byName(html, 'creditcard_holder').attributes.get('value')).toBe('ANA SOUZA');
    expect(byName(html, 'creditcard_month').attributes.get('value')).toBe('07');
    expect(byName(html, 'creditcard_year').attributes.get('value')).toBe('2031');
    expect(html).toContain('<option value="elo" selected>Elo</option>');
    expect(html).toContain('<option value="2" selected>2x de R$ 617,28</option>');
    expect(openTags(html, 'option').filter((tag) => tag.attributes.has('selected'))).toHaveLength(2);
  });

  it('never puts a value on the card number or the CVV, even when the caller passes them by mistake', () => {
    const values = { holder: 'ANA', number: '4111111111111111', creditcard_number: '4111111111111111', cvv: '123', creditcard_cvv: '123' };
    const card = { ...checkoutView().card!, values: values as unknown as NonNullable<CheckoutPageView['card']>['values'] };
    const { html } = renderCheckoutPage(checkoutView({ card }));
    expect(byName(html, 'creditcard_number').attributes.has('value')).toBe(false);
    expect(byName(html, 'creditcard_cvv').attributes.has('value')).toBe(false);
    expect(html).not.toContain('4111111111111111');
    expect(html).not.toContain('"123"');
    expect(byName(html, 'creditcard_holder').attributes.get('value')).toBe('ANA');
  });

  it('shows the notice as an alert and each field error next to its input, linked by aria-describedby', () => {
    const card = {
      ...checkoutView().card!,
      notice: { kind: 'declined' as const, message: 'Pagamento recusado pela operadora. Tente outro cartão.' },
      fieldErrors: { creditcard_number: ['Número do cartão inválido'], creditcard_brand: ['Bandeira inválida'] },
    };
    const { html } = renderCheckoutPage(checkoutView({ card }));
    expect(byId(html, 'card-notice').attributes.get('role')).toBe('alert');
    expect(textOf(html, 'card-notice')).toBe('Pagamento recusado pela operadora. Tente outro cartão.');
    for (const [field, message] of [
      ['creditcard_number', 'Número do cartão inválido'],
      ['creditcard_brand', 'Bandeira inválida'],
    ] as const) {
      const control = byName(html, field);
      expect(control.attributes.get('aria-invalid')).toBe('true');
      expect(control.attributes.get('aria-describedby')).toBe(`${field}-error`);
      expect(textOf(html, `${field}-error`)).toBe(message);
      // Right after its control (the select's options in between).
      const after = html.slice(html.indexOf(`name="${field}"`));
      expect(after.indexOf(`id="${field}-error"`)).toBeLessThan(after.indexOf('<label'));
    }
    expect(byName(html, 'creditcard_cvv').attributes.has('aria-invalid')).toBe(false);
  });

  it('gives every input, select and textarea a label, and every id is unique', () => {
    const { html } = renderCheckoutPage(checkoutView({ card: { ...checkoutView().card!, fieldErrors: { creditcard_cvv: ['x'] } } }));
    const tags = openTags(html);
    const ids = tags.flatMap((tag) => {
      const id = tag.attributes.get('id');
      return typeof id === 'string' ? [id] : [];
    });
    expect(new Set(ids).size).toBe(ids.length);
    const labelled = new Set(tags.filter((tag) => tag.name === 'label').map((tag) => tag.attributes.get('for')));
    const controls = tags.filter((tag) => ['input', 'select', 'textarea'].includes(tag.name) && tag.attributes.get('type') !== 'hidden');
    expect(controls.map((tag) => tag.attributes.get('name') ?? tag.attributes.get('id'))).toEqual([
      'pix-copy',
      'creditcard_holder',
      'creditcard_number',
      'creditcard_month',
      'creditcard_year',
      'creditcard_cvv',
      'creditcard_brand',
      'installments',
    ]);
    for (const control of controls) expect(labelled.has(control.attributes.get('id'))).toBe(true);
    for (const label of labelled) expect(ids).toContain(label);
  });

  it('shows only the methods given', () => {
    const pixOnly = renderCheckoutPage(checkoutView({ card: undefined })).html;
    expect(pixOnly).toContain('id="pix"');
    expect(pixOnly).not.toContain('id="card-form"');
    const cardOnly = renderCheckoutPage(checkoutView({ pix: undefined })).html;
    expect(cardOnly).toContain('id="card-form"');
    expect(cardOnly).not.toContain('id="pix-copy"');
  });

  it('fits a 360 px screen: a fluid container with a max-width, nothing fixed wider, focus styles', () => {
    const { html } = renderCheckoutPage(checkoutView());
    const [style = ''] = rawTexts(html, 'style');
    expect(style).toMatch(/main\{[^}]*width:100%;max-width:[^;}]+/);
    for (const match of style.matchAll(/(?:^|[;{])(?:min-)?width:(\d+)px/g)) expect(Number(match[1])).toBeLessThanOrEqual(360);
    for (const tag of openTags(html)) {
      const width = tag.attributes.get('width');
      if (typeof width === 'string') expect(Number(width)).toBeLessThanOrEqual(328);
    }
    expect(style).toMatch(/input:focus-visible[^{]*\{outline:3px solid/);
    expect(style).not.toMatch(/outline:\s*(none|0)/);
  });
});

describe('the receipt page', () => {
  it('confirms the payment in pt-BR with the total, the date in Brasília time, the method and a link back', () => {
    const { html } = renderReceiptPage(receiptView());
    expect(textOf(html, 'status')).toBe('Pagamento confirmado');
    expect(textOf(html, 'total')).toBe('R$ 21,00');
    expect(textOf(html, 'quantity')).toBe('2');
    expect(textOf(html, 'paid-at')).toBe('23/11/2026 às 14:05 (horário de Brasília)');
    expect(textOf(html, 'payment-type')).toBe('Pix');
    expect(textOf(html, 'back')).toBe('Voltar à loja');
    expect(html).toContain('href="https://shop.example/paid?tx_ref=order_42&amp;status=PAID"');
    expect(textOf(renderReceiptPage(receiptView({ paymentType: 'creditcard' })).html, 'payment-type')).toBe('Cartão de crédito');
    expect(renderReceiptPage(receiptView({ paymentType: null })).html).not.toContain('payment-type');
  });

  it('refuses a callback URL that is not http(s), and a paid-at that is not a date', () => {
    expect(() => renderReceiptPage(receiptView({ callbackUrl: 'javascript:alert(1)' }))).toThrow();
    expect(() => renderReceiptPage(receiptView({ callbackUrl: 'data:text/html,x' }))).toThrow();
    expect(() => renderReceiptPage(receiptView({ paidAt: 'yesterday' }))).toThrow();
  });
});

describe('the abandoned page', () => {
  it('says the payment expired, in pt-BR', () => {
    const { html } = renderAbandonedPage({ merchantName: 'Loja da Ana', title: 'Camiseta' });
    expect(textOf(html, 'status')).toBe('Este pagamento expirou');
    expect(textOf(html, 'merchant')).toBe('Loja da Ana');
    expect(html).not.toContain('<form');
  });
});

describe('the error page', () => {
  it('has a distinct pt-BR title for each status', () => {
    const titles = ALL_STATUSES.map((status) => textOf(renderErrorPage({ status }).html, 'error-title'));
    expect(new Set(titles).size).toBe(ALL_STATUSES.length);
    expect(titles[ALL_STATUSES.indexOf(404)]).toBe('Página não encontrada');
    expect(titles[ALL_STATUSES.indexOf(422)]).toBe('Dados inválidos');
    for (const status of ALL_STATUSES) expect(renderErrorPage({ status }).html).toContain(`Código do erro: ${status}`);
  });

  it('lists each bad field of the entry form with its pt-BR label and messages', () => {
    const fieldErrors = Object.fromEntries(CHECKOUT_FIELDS.map((field) => [field, [`mensagem de ${field}`]]));
    const { html } = renderErrorPage({ status: 422, fieldErrors });
    const items = [...html.matchAll(/<li data-field="([^"]+)">([\s\S]*?)<\/li>/g)].map((match) => [match[1], decode((match[2] ?? '').replace(/<[^>]*>/g, ''))]);
    expect(items.map(([field]) => field)).toEqual([...CHECKOUT_FIELDS]);
    const labels: Record<string, string> = {
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
    };
    for (const [field, text] of items) expect(text).toBe(`${labels[field ?? '']} (${field}): mensagem de ${field}`);
  });

  it('joins several messages of one field, and skips a field with none', () => {
    const { html } = renderErrorPage({ status: 422, fieldErrors: { amount: ['Deve ser maior que 0', 'Outra'], email: [] } });
    expect(html).toContain('Valor unitário (<code>amount</code>): Deve ser maior que 0; Outra</li>');
    expect(html).not.toContain('data-field="email"');
  });

  it('shows the given message instead of the default one', () => {
    expect(textOf(renderErrorPage({ status: 400, message: 'Formulário sem assinatura.' }).html, 'error-message')).toBe('Formulário sem assinatura.');
    expect(textOf(renderErrorPage({ status: 400 }).html, 'error-message')).not.toBe('Formulário sem assinatura.');
  });
});

describe('cardFieldMessage', () => {
  it('gives a pt-BR message per card field and a generic one otherwise', () => {
    expect(cardFieldMessage('creditcard_number')).toBe('Número do cartão inválido');
    const fields = ['creditcard_holder', 'creditcard_number', 'creditcard_cvv', 'creditcard_month', 'creditcard_year', 'creditcard_brand', 'installments'];
    const messages = fields.map(cardFieldMessage);
    expect(new Set(messages).size).toBe(fields.length);
    expect(cardFieldMessage('toString')).toBe('Campo inválido');
    expect(cardFieldMessage('other')).toBe('Campo inválido');
  });
});

// ---------------------------------------------------------------------------------------------
// The page's script, run against a minimal fake DOM (node:vm): polling, redirect, copy button.
// ---------------------------------------------------------------------------------------------

type FakeElement = {
  textContent: string;
  disabled: boolean;
  value: string;
  listeners: Record<string, Array<() => void>>;
  addEventListener: (type: string, listener: () => void) => void;
  focus: () => void;
  select: () => void;
  selected: boolean;
};

function fakeElement(text = '', value = ''): FakeElement {
  const element: FakeElement = {
    textContent: text,
    disabled: false,
    value,
    listeners: {},
    selected: false,
    addEventListener: (type, listener) => {
      (element.listeners[type] ??= []).push(listener);
    },
    focus: () => undefined,
    select: () => {
      element.selected = true;
    },
  };
  return element;
}

type Answer = { ok: boolean; status: number; json: () => Promise<unknown> };

function runScript(options: { status: string; answers: Array<Answer | Error>; clipboard?: boolean }) {
  const { html } = renderCheckoutPage(checkoutView({ status: options.status === 'UNKNOWN' ? 'UNKNOWN' : 'PENDING' }));
  const [script = ''] = rawTexts(html, 'script');
  const elements: Record<string, FakeElement> = {
    status: fakeElement('Aguardando pagamento'),
    'pay-card': fakeElement('Pagar R$ 1.234,56'),
    'copy-pix': fakeElement('Copiar código'),
    'pix-copy': fakeElement('', '000201PIX'),
    'card-form': fakeElement(),
  };
  const timers: Array<{ callback: () => void; delay: number }> = [];
  const fetched: string[] = [];
  const assigned: string[] = [];
  const copied: string[] = [];
  const execCommands: string[] = [];
  const windowListeners: Record<string, Array<() => void>> = {};
  const window = {
    location: { href: 'https://pay.example/checkout/CHK-ABCD2345/tok', assign: (url: string) => assigned.push(url) },
    setTimeout: (callback: () => void, delay: number) => timers.push({ callback, delay }) - 1,
    clearTimeout: () => undefined,
    fetch: (url: string) => {
      fetched.push(url);
      const answer = options.answers.shift() ?? new Error('no more answers');
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
    addEventListener: (type: string, listener: () => void) => {
      (windowListeners[type] ??= []).push(listener);
    },
  };
  const attributes: Record<string, string> = { 'data-status-url': '/checkout/CHK-ABCD2345/tok/status', 'data-status': options.status };
  const document = {
    body: { getAttribute: (name: string) => attributes[name] ?? null },
    getElementById: (id: string) => elements[id] ?? null,
    execCommand: (command: string) => {
      execCommands.push(command);
      return true;
    },
  };
  const navigator = options.clipboard === false ? {} : { clipboard: { writeText: (text: string) => (copied.push(text), Promise.resolve()) } };
  new Script(script).runInContext(createContext({ window, document, navigator, URL }));
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  /** Runs the timers due now (one poll) and lets its promises settle. */
  const tick = async () => {
    const due = timers.splice(0, timers.length);
    for (const timer of due) timer.callback();
    await settle();
  };
  return { elements, timers, fetched, assigned, copied, execCommands, windowListeners, tick, settle };
}

const json = (body: unknown): Answer => ({ ok: true, status: 200, json: () => Promise.resolve(body) });

describe('the page script', () => {
  it('compiles as a classic script', () => {
    const [script = ''] = rawTexts(renderCheckoutPage(checkoutView()).html, 'script');
    expect(() => new Script(script)).not.toThrow();
  });

  it('polls every 3 s while PENDING, then on PAID goes to redirect_url', async () => {
    const run = runScript({
      status: 'PENDING',
      answers: [json({ status: 'PENDING', redirect_url: null }), json({ status: 'PAID', redirect_url: 'https://shop.example/paid?tx_ref=a&status=PAID' })],
    });
    expect(run.timers.map((timer) => timer.delay)).toEqual([3000]);
    expect(run.fetched).toEqual([]);
    await run.tick();
    expect(run.fetched).toEqual(['/checkout/CHK-ABCD2345/tok/status']);
    expect(run.timers.map((timer) => timer.delay)).toEqual([3000]);
    await run.tick();
    expect(run.elements.status?.textContent).toBe('Pagamento confirmado');
    expect(run.assigned).toEqual(['https://shop.example/paid?tx_ref=a&status=PAID']);
    expect(run.timers).toEqual([]);
  });

  it('updates the status text from UNKNOWN to PENDING and keeps polling', async () => {
    const run = runScript({ status: 'UNKNOWN', answers: [json({ status: 'PENDING', redirect_url: null })] });
    await run.tick();
    expect(run.elements.status?.textContent).toBe('Aguardando pagamento');
    expect(run.timers).toHaveLength(1);
  });

  it('keeps polling after an error answer or a network failure', async () => {
    const run = runScript({ status: 'PENDING', answers: [{ ok: false, status: 503, json: () => Promise.resolve({}) }, new Error('offline')] });
    await run.tick();
    expect(run.timers).toHaveLength(1);
    await run.tick();
    expect(run.timers).toHaveLength(1);
    expect(run.fetched).toHaveLength(2);
  });

  it('never navigates to a redirect_url that is not http(s)', async () => {
    const run = runScript({ status: 'PENDING', answers: [json({ status: 'PAID', redirect_url: 'javascript:alert(1)' })] });
    await run.tick();
    expect(run.assigned).toEqual([]);
    expect(run.elements.status?.textContent).toBe('Pagamento confirmado');
  });

  it('stops on ABANDONED and disables the pay button', async () => {
    const run = runScript({ status: 'PENDING', answers: [json({ status: 'ABANDONED', redirect_url: null })] });
    await run.tick();
    expect(run.elements.status?.textContent).toBe('Este pagamento expirou');
    expect(run.elements['pay-card']?.disabled).toBe(true);
    expect(run.timers).toEqual([]);
  });

  it('copies the Pix code with the Clipboard API and says "Copiado!"', async () => {
    const run = runScript({ status: 'PENDING', answers: [] });
    for (const listener of run.elements['copy-pix']?.listeners.click ?? []) listener();
    await run.settle();
    expect(run.copied).toEqual(['000201PIX']);
    expect(run.elements['copy-pix']?.textContent).toBe('Copiado!');
  });

  it('falls back to selecting the code when there is no Clipboard API', () => {
    const run = runScript({ status: 'PENDING', answers: [], clipboard: false });
    for (const listener of run.elements['copy-pix']?.listeners.click ?? []) listener();
    expect(run.elements['pix-copy']?.selected).toBe(true);
    expect(run.execCommands).toEqual(['copy']);
    expect(run.elements['copy-pix']?.textContent).toBe('Copiado!');
  });

  it('disables the pay button once the card form is submitted, and enables it again on pageshow', () => {
    const run = runScript({ status: 'PENDING', answers: [] });
    for (const listener of run.elements['card-form']?.listeners.submit ?? []) listener();
    expect(run.elements['pay-card']?.disabled).toBe(true);
    expect(run.elements['pay-card']?.textContent).toBe('Processando…');
    for (const listener of run.windowListeners.pageshow ?? []) listener();
    expect(run.elements['pay-card']?.disabled).toBe(false);
    expect(run.elements['pay-card']?.textContent).toBe('Pagar R$ 1.234,56');
  });
});

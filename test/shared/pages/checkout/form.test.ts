import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalCallbackUrl, CHECKOUT_MAX_TOTAL_CENTS, type CheckoutFormParse, parseCheckoutForm } from '../../../../shared/pages/checkout/form';
import { signForm, verifyFormSignature } from '../../../../shared/app/checkout/form-signature';

const valid: Record<string, string> = {
  public_key: 'PUB-AbCdEfGhIjKlMnOpQrStUvWxYz012345',
  tx_ref: 'order_42.a:b-c',
  callback_url: 'https://shop.example/paid?x=1',
  title: 'Camiseta azul',
  quantity: '3',
  amount: '10.50',
  email: 'ana@example.com',
  first_name: 'Ana',
  last_name: 'Souza',
};

const body = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const remote = { allowLocalCallback: false };
const local = { allowLocalCallback: true };

function errorsOf(result: CheckoutFormParse): Record<string, string[]> {
  if (result.ok) throw new Error('expected the form to be refused');
  return result.errors;
}

describe('parseCheckoutForm', () => {
  it('reads a valid form into typed values with the total in cents', () => {
    const result = parseCheckoutForm(body({ ...valid, product_reference: 'SKU-1', product_name: 'Camiseta' }), remote);
    expect(result).toEqual({
      ok: true,
      value: { ...valid, quantity: 3, amount: 10.5, amount_cents: 1050, total_cents: 3150, product_reference: 'SKU-1', product_name: 'Camiseta' },
      fields: { ...valid, product_reference: 'SKU-1', product_name: 'Camiseta' },
    });
  });

  it('lists every missing required field', () => {
    const errors = errorsOf(parseCheckoutForm('', remote));
    expect(Object.keys(errors).sort()).toEqual(
      ['amount', 'callback_url', 'email', 'first_name', 'last_name', 'public_key', 'quantity', 'title', 'tx_ref'].sort(),
    );
    for (const messages of Object.values(errors)) expect(messages).toEqual(['Campo obrigatório']);
  });

  it('refuses a field sent twice, even an optional one', () => {
    const errors = errorsOf(parseCheckoutForm(`${body(valid)}&amount=0.01&signature=${'a'.repeat(64)}&signature=${'b'.repeat(64)}`, remote));
    expect(errors).toEqual({ amount: ['Deve ser enviado uma única vez'], signature: ['Deve ser enviado uma única vez'] });
  });

  it('ignores unknown fields and leaves them out of the signed fields', () => {
    const result = parseCheckoutForm(`${body(valid)}&submit=Pagar&tax=50&discount=100`, remote);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(Object.keys(result.fields)).not.toContain('submit');
      expect(result.value.total_cents).toBe(3150);
    }
  });

  it('treats an empty optional field as absent but keeps it in the signed fields', () => {
    const result = parseCheckoutForm(body({ ...valid, product_name: '', signature: '' }), remote);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.value.product_name).toBeUndefined();
      expect(result.value.signature).toBeUndefined();
      expect(result.fields.product_name).toBe('');
    }
  });

  const TX_REF = 'Deve ter de 1 a 100 caracteres entre A-Z a-z 0-9 _ . : -';
  const AMOUNT_FORMAT = 'Deve ser um número maior que 0 com no máximo 2 casas decimais e ponto como separador, por exemplo 10.50';
  it.each([
    ['tx_ref', '', TX_REF],
    ['tx_ref', 'a'.repeat(101), TX_REF],
    ['tx_ref', 'has space', TX_REF],
    ['tx_ref', 'ação', TX_REF],
    ['tx_ref', 'a/b', TX_REF],
    ['title', '', 'Campo obrigatório'],
    ['title', '   ', 'Campo obrigatório'],
    ['title', 't'.repeat(256), 'Deve ter no máximo 255 caracteres'],
    ['quantity', '0', 'Deve ser no mínimo 1'],
    ['quantity', '100001', 'Deve ser no máximo 100.000'],
    ['quantity', '1.5', 'Deve ser um número inteiro'],
    ['quantity', '-1', 'Deve ser um número inteiro'],
    ['quantity', '1e3', 'Deve ser um número inteiro'],
    ['amount', '0', 'Deve ser maior que 0'],
    ['amount', '0.00', 'Deve ser maior que 0'],
    ['amount', '10.005', AMOUNT_FORMAT],
    ['amount', '-1', AMOUNT_FORMAT],
    ['amount', '1,50', AMOUNT_FORMAT],
    ['amount', '1e3', AMOUNT_FORMAT],
    ['amount', ' 10', AMOUNT_FORMAT],
    ['amount', '1000000000', 'Deve ser no máximo 999999999.00 (R$ 999.999.999,00)'],
    ['email', 'not-an-email', 'Deve ser um endereço de e-mail'],
    ['email', `${'e'.repeat(250)}@example.com`, 'Deve ter no máximo 255 caracteres'],
    ['first_name', '', 'Campo obrigatório'],
    ['last_name', 'x'.repeat(101), 'Deve ter no máximo 100 caracteres'],
    ['public_key', 'SEC-abcdef', 'Esta é a sua chave secreta: nunca a coloque em uma página; troque-a agora'],
    ['public_key', 'has space', 'Deve ser a sua chave pública'],
    ['signature', 'abc', 'Deve ter 64 dígitos hexadecimais (HMAC-SHA256)'],
    ['product_name', 'p'.repeat(256), 'Deve ter no máximo 255 caracteres'],
    ['product_name', '   ', 'Não pode conter apenas espaços'],
    ['product_reference', 'r'.repeat(101), 'Deve ter no máximo 100 caracteres'],
    ['callback_url', 'http://shop.example/paid', 'Deve ser uma URL https'],
    ['callback_url', 'http://localhost:3000/paid', 'Deve ser uma URL https'],
    ['callback_url', 'javascript:alert(1)', 'Deve ser uma URL https'],
    ['callback_url', 'https://user:pass@shop.example/', 'Deve ser uma URL https'],
    ['callback_url', 'not a url', 'Deve ser uma URL https'],
    ['callback_url', `https://shop.example/${'a'.repeat(2048)}`, 'Deve ter no máximo 2048 caracteres'],
  ])('refuses %s = %j on that field alone, in pt-BR', (field, value, message) => {
    expect(errorsOf(parseCheckoutForm(body({ ...valid, [field]: value }), remote))).toEqual({ [field]: [message] });
  });

  it.each([
    ['a backslash read as a slash (the host is evil.example)', 'https://evil.example\\@shop.example/x'],
    ['backslashes for slashes', 'https:\\\\evil.example\\x'],
    ['a Cyrillic look-alike host (punycode to the browser)', 'https://shop.\u0435xample/paid'],
    ['CR LF inside', 'https://shop.example/pa\r\nid'],
    ['a TAB inside', 'https://shop.example/pa\tid'],
    ['a leading space', ' https://shop.example/paid'],
    ['an upper-case host', 'https://SHOP.example/paid'],
    ['a default port spelled out', 'https://shop.example:443/paid'],
  ])('refuses a callback_url not in canonical form: %s', (_label, url) => {
    const errors = errorsOf(parseCheckoutForm(body({ ...valid, callback_url: url }), remote));
    expect(Object.keys(errors)).toEqual(['callback_url']);
    expect(errors.callback_url?.join(' ')).toMatch(/forma canônica|URL https/);
  });

  it('keeps a canonical callback_url as sent, and gives an empty path its slash', () => {
    const kept = parseCheckoutForm(body({ ...valid, callback_url: 'https://shop.example/paid?x=1' }), remote);
    expect(kept.ok && kept.value.callback_url).toBe('https://shop.example/paid?x=1');
    const slashed = parseCheckoutForm(body({ ...valid, callback_url: 'https://shop.example' }), remote);
    expect(slashed.ok && slashed.value.callback_url).toBe('https://shop.example/');
    expect(canonicalCallbackUrl('https://xn--shop-xyz.example/')).toBe('https://xn--shop-xyz.example/');
  });

  it('says in pt-BR which local URLs the local stack also takes', () => {
    expect(errorsOf(parseCheckoutForm(body({ ...valid, callback_url: 'http://shop.example/' }), local))).toEqual({
      callback_url: ['Deve ser uma URL https (ou http://localhost, http://127.0.0.1)'],
    });
  });

  it.each([
    ['tx_ref', 'a'.repeat(100)],
    ['title', 't'.repeat(255)],
    ['quantity', '100000'],
    ['quantity', '1'],
    ['amount', '0.01'],
    ['amount', '7'],
    ['amount', '7.5'],
  ])('accepts %s = %j at the edge', (field, value) => {
    expect(parseCheckoutForm(body({ ...valid, [field]: value }), remote).ok).toBe(true);
  });

  it('accepts http://localhost and http://127.0.0.1 only when local, never another http host', () => {
    for (const url of ['http://localhost:3000/paid', 'http://127.0.0.1:8080/x']) {
      expect(parseCheckoutForm(body({ ...valid, callback_url: url }), local).ok).toBe(true);
      expect(errorsOf(parseCheckoutForm(body({ ...valid, callback_url: url }), remote))).toHaveProperty('callback_url');
    }
    for (const url of ['http://shop.example/', 'http://localhost.evil.example/', 'http://127.0.0.2/']) {
      expect(errorsOf(parseCheckoutForm(body({ ...valid, callback_url: url }), local))).toHaveProperty('callback_url');
    }
  });

  it('refuses a total past the checkout limit (9,999,999,999.99: what Pix and card both carry) on amount, and accepts up to it', () => {
    expect(CHECKOUT_MAX_TOTAL_CENTS).toBe(999_999_999_999);
    expect(parseCheckoutForm(body({ ...valid, amount: '99999999.99', quantity: '100' }), remote).ok).toBe(true);
    expect(parseCheckoutForm(body({ ...valid, amount: '999999999', quantity: '10' }), remote).ok).toBe(true);
    expect(errorsOf(parseCheckoutForm(body({ ...valid, amount: '100000000', quantity: '100' }), remote))).toEqual({
      amount: ['O total (valor × quantidade) deve ser no máximo 9999999999.99 (R$ 9.999.999.999,99)'],
    });
    expect(parseCheckoutForm(body({ ...valid, amount: '5', quantity: '3' }), { ...remote, maxTotalCents: 1499 }).ok).toBe(false);
  });

  it('computes total_cents as amount × quantity exactly for any valid pair', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 100_000 })
          .chain((quantity) =>
            fc.tuple(fc.integer({ min: 1, max: Math.min(999_999_999 * 100, Math.floor(CHECKOUT_MAX_TOTAL_CENTS / quantity)) }), fc.constant(quantity)),
          ),
        ([cents, quantity]) => {
          const amount = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
          const result = parseCheckoutForm(body({ ...valid, amount, quantity: String(quantity) }), remote);
          expect(result.ok && result.value.total_cents).toBe(cents * quantity);
          expect(result.ok && result.value.amount_cents).toBe(cents);
        },
      ),
    );
  });

  it('decodes + and percent escapes as a browser sends them', () => {
    const result = parseCheckoutForm(body({ ...valid, title: 'Café & pão <b>' }).replace(/%20/g, '+'), remote);
    expect(result.ok && result.value.title).toBe('Café & pão <b>');
  });

  it('returns the signed fields so that a form signed by the merchant verifies, and an edited amount does not', () => {
    const secret = 'cks_secret';
    const signature = signForm(valid, secret);
    const result = parseCheckoutForm(body({ ...valid, signature }), remote);
    expect(result.ok && verifyFormSignature(result.fields, secret)).toBe(true);
    const edited = parseCheckoutForm(body({ ...valid, amount: '0.01', signature }), remote);
    expect(edited.ok && verifyFormSignature(edited.fields, secret)).toBe(false);
    const extended = parseCheckoutForm(body({ ...valid, product_name: 'Brinde', signature }), remote);
    expect(extended.ok && verifyFormSignature(extended.fields, secret)).toBe(false);
  });
});

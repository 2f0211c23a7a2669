import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issuedKeyPairOf, parseBasicAuthorization } from '../../../../shared/domain/auth/basic';
import { parseCheckoutForm } from '../../../../shared/pages/checkout/form';
import { DomainError, UnauthorizedError } from '../../../../shared/domain/errors';
import { createCustomerBodySchema, listCustomersQuerySchema } from '../../../../shared/domain/schemas/customer';
import { putWebhookBodySchema } from '../../../../shared/domain/schemas/webhook';
import { multiLineText, PT_BR_TEXT_MESSAGES, singleLineText, TEXT_MESSAGES, textProblem } from '../../../../shared/domain/schemas/text';

/** The messages of a refusal, or [] when the value is taken. */
function messagesOf(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
}

function parsedValue(schema: z.ZodType, value: unknown): unknown {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`refused: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

const line = singleLineText(50).min(1);
const multi = multiLineText(50);

/** Each class of refused character, with its message, in both kinds of field (line breaks apart). */
const REFUSED_EVERYWHERE: [string, string, string][] = [
  ['NUL', 'a\u0000b', 'control'],
  ['ESC (ANSI colour)', 'a\u001b[31mred', 'control'],
  ['BEL', '\u0007', 'control'],
  ['vertical tab', 'a\u000bb', 'control'],
  ['form feed', 'a\u000cb', 'control'],
  ['DEL', 'a\u007fb', 'control'],
  ['C1 U+0080', 'a\u0080b', 'control'],
  ['C1 NEL U+0085', 'a\u0085b', 'control'],
  ['C1 CSI U+009B', 'a\u009b31mb', 'control'],
  ['C1 U+009F', 'a\u009fb', 'control'],
  ['lone high surrogate', 'a\ud800b', 'surrogate'],
  ['lone low surrogate', 'a\udfffb', 'surrogate'],
  ['high surrogate at the end', 'abc\ud83d', 'surrogate'],
  ['reversed pair', '\ude00\ud83d', 'surrogate'],
  ['RLO override', 'invoice\u202egpj.exe', 'bidi'],
  ['LRE embedding', 'a\u202ab', 'bidi'],
  ['PDF', 'a\u202cb', 'bidi'],
  ['LRI isolate', 'a\u2066b', 'bidi'],
  ['PDI', 'a\u2069b', 'bidi'],
  ['zero-width space only', '\u200b', 'invisible'],
  ['zero-width joiners only', '\u200c\u200d', 'invisible'],
  ['word joiner only', '\u2060', 'invisible'],
  ['BOM between zero-width spaces', '\u200b\ufeff\u200b', 'invisible'],
  ['Hangul filler only', '\u3164', 'invisible'],
  ['blank Braille only', '\u2800\u2800', 'invisible'],
  ['RLM only', '\u200f', 'invisible'],
  ['soft hyphen and variation selector', '\u00ad\ufe0f', 'invisible'],
];

describe('singleLineText / multiLineText (shared/domain/schemas/text.ts)', () => {
  for (const [name, value, kind] of REFUSED_EVERYWHERE) {
    it(`refuses ${name} in a single-line and a multi-line field`, () => {
      const single = TEXT_MESSAGES[kind as keyof typeof TEXT_MESSAGES];
      const multiple = kind === 'control' ? TEXT_MESSAGES.multiLineControl : single;
      expect(messagesOf(line, value)).toEqual([single]);
      expect(messagesOf(multi, value)).toEqual([multiple]);
    });
  }

  it('NFC-normalizes: e + combining acute is stored as é (one code point), Hangul jamo as one syllable', () => {
    expect(parsedValue(line, 'Jose\u0301')).toBe('José');
    expect(parsedValue(line, 'Jose\u0301')).toHaveLength(4);
    expect(parsedValue(multi, 'cafe\u0301\nna\u0303o')).toBe('café\nnão');
    expect(parsedValue(line, '\u1100\u1161')).toBe('\uac00');
    // The limit counts the normalized text: 50 decomposed é are 50 characters once composed.
    expect(parsedValue(singleLineText(50), 'e\u0301'.repeat(50))).toBe('é'.repeat(50));
  });

  it('trims spaces (and a leading BOM), then counts the limit', () => {
    expect(parsedValue(line, '  Ana Souza \u00a0')).toBe('Ana Souza');
    expect(parsedValue(line, '\ufeffAna')).toBe('Ana');
    // Line breaks and tabs at either end are white space: trimmed, never stored.
    expect(parsedValue(line, '\r\n\tAna\u2028 ')).toBe('Ana');
    expect(parsedValue(line, ` ${'x'.repeat(50)} `)).toBe('x'.repeat(50));
    expect(messagesOf(line, 'x'.repeat(51))).toHaveLength(1);
    expect(messagesOf(line, '   ')).toHaveLength(1);
  });

  it('takes ordinary text: accents, emoji (a surrogate pair), right-to-left names with their marks, a zero-width joiner inside a word', () => {
    for (const value of ['São Paulo', 'Conceição D’Ávila', 'Café ☕ 😀', 'שלום\u200f', 'محمد', 'क्‍ष', 'a\u200bb', 'PUB-x y']) {
      expect(messagesOf(line, value), value).toEqual([]);
    }
  });

  it('line breaks only in multi-line fields: CRLF, CR, U+2028 and U+2029 are stored as \\n; tabs only there', () => {
    for (const value of ['a\nb', 'a\r\nb', 'a\rb', 'a\u2028b', 'a\u2029b']) {
      expect(messagesOf(line, value), JSON.stringify(value)).toEqual([TEXT_MESSAGES.lineBreak]);
      expect(parsedValue(multi, value), JSON.stringify(value)).toBe('a\nb');
    }
    expect(parsedValue(multi, 'Linha 1\r\n\r\nLinha 3\n')).toBe('Linha 1\n\nLinha 3');
    expect(messagesOf(line, 'a\tb')).toEqual([TEXT_MESSAGES.control]);
    expect(parsedValue(multi, 'a\tb')).toBe('a\tb');
  });

  it('is still a string schema: optional, min and the JSON Schema limits of the OpenAPI document', () => {
    expect(parsedValue(singleLineText(10).optional(), undefined)).toBeUndefined();
    expect(messagesOf(singleLineText(10), 5)).toHaveLength(1);
    expect(z.toJSONSchema(singleLineText(10).min(1), { io: 'input' })).toMatchObject({ type: 'string', minLength: 1, maxLength: 10 });
  });

  it('takes other messages and a base schema (the checkout form in pt-BR)', () => {
    const base = z.string({ error: () => 'Campo obrigatório' });
    const schema = singleLineText(5, { base, messages: { ...PT_BR_TEXT_MESSAGES, tooLong: (max) => `no máximo ${max}` } });
    expect(messagesOf(schema, 'a\u0000')).toEqual([PT_BR_TEXT_MESSAGES.control]);
    expect(messagesOf(schema, 'abcdef')).toEqual(['no máximo 5']);
    expect(messagesOf(schema, undefined)).toEqual(['Campo obrigatório']);
  });

  it('textProblem names the first problem, or nothing', () => {
    expect(textProblem('fine', false)).toBeUndefined();
    expect(textProblem('a\nb', true)).toBeUndefined();
    expect(textProblem('a\nb', false)).toBe(TEXT_MESSAGES.lineBreak);
    expect(textProblem('', false)).toBeUndefined();
  });
});

describe('the schemas that use it', () => {
  const customer = { name: 'Ana Souza', document: '529.982.247-25', document_type: 'CPF', email: 'ana@example.com' };
  const address = { zipcode: '01310-100', country_id: 76, state: 'SP', city: 'São Paulo', district: 'Bela Vista', street: 'Avenida Paulista', number: '1000' };

  it('customer: every text field refuses a control character on that field; the name is stored NFC', () => {
    for (const field of ['name', 'city', 'district', 'street', 'number']) {
      const parsed = createCustomerBodySchema.safeParse({ ...customer, ...address, [field]: 'x\u0000' });
      expect(parsed.success, field).toBe(false);
      if (!parsed.success)
        expect(
          parsed.error.issues.map((i) => i.path.join('.')),
          field,
        ).toContain(field);
    }
    const parsed = createCustomerBodySchema.parse({ ...customer, name: 'Jose\u0301 Souza' });
    expect(parsed.name).toBe('José Souza');
    expect(listCustomersQuerySchema.safeParse({ name: '\u202eabc' }).success).toBe(false);
  });

  it('webhook url: no control characters or line breaks (the URL parser would drop a tab silently)', () => {
    expect(putWebhookBodySchema.safeParse({ url: 'https://exa\tmple.com/hook' }).success).toBe(false);
    expect(putWebhookBodySchema.safeParse({ url: 'https://example.com/a\nb' }).success).toBe(false);
    expect(putWebhookBodySchema.safeParse({ url: 'https://example.com/hook' }).success).toBe(true);
  });

  it('checkout form: text fields refuse them with pt-BR messages, and store NFC', () => {
    const form = {
      public_key: `PUB-${'a'.repeat(32)}`,
      tx_ref: 'order-1',
      callback_url: 'https://shop.example/back',
      title: 'Cafe\u0301',
      quantity: '1',
      amount: '10.00',
      email: 'ana@example.com',
      first_name: 'Ana',
      last_name: 'Silva',
      product_name: 'Camiseta',
    };
    const ok = parseCheckoutForm(new URLSearchParams(form).toString(), { allowLocalCallback: false });
    expect(ok.ok && ok.value.title).toBe('Café');
    for (const [field, value, message] of [
      ['title', 'a\u0000', PT_BR_TEXT_MESSAGES.control],
      ['first_name', 'Ana\nMaria', PT_BR_TEXT_MESSAGES.lineBreak],
      ['last_name', '\u202eavliS', PT_BR_TEXT_MESSAGES.bidi],
      ['product_name', '\u200b', PT_BR_TEXT_MESSAGES.invisible],
      ['product_reference', 'a\u009bb', PT_BR_TEXT_MESSAGES.control],
    ] as const) {
      const parsed = parseCheckoutForm(new URLSearchParams({ ...form, [field]: value }).toString(), { allowLocalCallback: false });
      expect(parsed.ok, field).toBe(false);
      if (!parsed.ok) expect(parsed.errors, field).toEqual({ [field]: [message] });
    }
  });
});

describe('issuedKeyPairOf (shared/domain/auth/basic.ts): only the shapes we issue reach the table', () => {
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const PUB = `PUB-${'A1b2'.repeat(8)}`;
  const SEC = `SEC-${'Zz9'.repeat(16)}`;

  function unauthorized(header: string): DomainError {
    try {
      issuedKeyPairOf(header);
    } catch (err) {
      if (err instanceof DomainError) return err;
      throw err;
    }
    throw new Error('expected a 401');
  }

  it('returns a pair of the issued shapes', () => {
    expect(issuedKeyPairOf(`Basic ${b64(`${PUB}:${SEC}`)}`)).toEqual({ publicKey: PUB, secretKey: SEC });
  });

  it('any other public or secret key is 401 with the unknown-key message', () => {
    const others: [string, string][] = [
      ['PUB-abc', SEC],
      [`${PUB}x`, SEC],
      [PUB.replace('A', 'é'), SEC],
      [PUB.replace('A', '-'), SEC],
      [`pub-${'a'.repeat(32)}`, SEC],
      [PUB, 'SEC-short'],
      [PUB, `${SEC}\u0000`],
      [`PUB-${'é'.repeat(32)}`, SEC],
      ['', ''],
    ];
    for (const [pub, sec] of others) {
      const err = unauthorized(`Basic ${b64(`${pub}:${sec}`)}`);
      expect(err, pub).toBeInstanceOf(UnauthorizedError);
      expect(err.message).toBe('Invalid public or secret key');
    }
  });

  it('a public key of 2,042 bytes and more is refused (401) before any lookup, as parseBasicAuthorization does', () => {
    for (const pub of [`PUB-${'a'.repeat(3_000)}`, `PUB-${'é'.repeat(1_021)}`, '€'.repeat(681)]) {
      expect(unauthorized(`Basic ${b64(`${pub}:${SEC}`)}`)).toBeInstanceOf(UnauthorizedError);
      expect(() => parseBasicAuthorization(`Basic ${b64(`${pub}:${SEC}`)}`)).toThrow(UnauthorizedError);
    }
  });
});

describe('optional fields and format characters that trimming would remove', () => {
  it('a lone BOM (U+FEFF, which String.prototype.trim drops) is refused, not stored as an empty optional value; plain spaces still trim to empty', () => {
    const optional = z.object({ client: singleLineText(255).optional() });
    const bom = optional.safeParse({ client: '\uFEFF' });
    expect(bom.success).toBe(false);
    expect(bom.error?.issues.map((issue) => issue.message)).toEqual([TEXT_MESSAGES.invisible]);
    expect(optional.safeParse({ client: '\uFEFF\u200B' }).success).toBe(false);
    expect(optional.parse({ client: '   ' })).toEqual({ client: '' });
    expect(optional.parse({ client: '\uFEFFAna' })).toEqual({ client: 'Ana' });
  });
});

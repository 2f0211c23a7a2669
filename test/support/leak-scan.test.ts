import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkoutSigningSecret } from '../../shared/domain/checkout-signing';
import { seal } from '../../shared/platform/crypto/personal-data';
import { newSecretKey } from '../../shared/platform/ids';
import { signToken } from '../../shared/domain/auth/token';
import { newWebhookSecret } from '../../shared/platform/webhook-secret';
import { cardBody } from './charges';
import { randomCpf } from './customers';
import { findItemLeaks, findLeaks, findLogLeaks, KNOWN_TEST_CARDS, passesLuhn } from './leak-scan';

const kinds = (text: string, options?: Parameters<typeof findLeaks>[1]) => findLeaks(text, options).map((l) => l.kind);
const token = () => signToken({ accountId: 'acct_abcdefghij0123456789', keyVersion: 1, issuedAt: 1_800_000_000, expiresAt: 1_802_592_000 }, randomBytes(32));

describe('findLeaks: finds each kind of secret in clear', () => {
  it('finds secret keys, tokens, webhook secrets and Basic credentials made by the service', () => {
    const secret = newSecretKey();
    expect(kinds(`key=${secret} end`)).toEqual(['secret-key']);
    expect(kinds(`{"authorization":"Bearer ${token()}"}`)).toEqual(['token']);
    expect(kinds(`{"secret":"${newWebhookSecret()}"}`)).toEqual(['webhook-secret']);
    const basic = Buffer.from(`PUB-${'a'.repeat(32)}:${secret}`).toString('base64');
    expect(kinds(`authorization: Basic ${basic}`)).toEqual(['basic-credentials']);
  });

  it('finds checkout signing secrets (cks_ + 43 base64url characters), in JSON, in a form and in free text; not a shorter or longer run', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 1, max: 1_000 }), (key, version) => {
        const secret = checkoutSigningSecret(Buffer.from(key), 'acct_abcdefghij0123456789', version);
        return (
          secret.length === 47 &&
          kinds(`{"secret":"${secret}"}`).join() === 'checkout-signing-secret' &&
          kinds(`signature=x&secret=${secret}&y=1`).join() === 'checkout-signing-secret' &&
          kinds(`{"title":"${secret}"}`, { freeText: true }).join() === 'checkout-signing-secret'
        );
      }),
      { numRuns: 200 },
    );
    const secret = checkoutSigningSecret(randomBytes(32), 'acct_x', 1);
    expect(findLeaks(`prefix ${secret}`)).toEqual([{ kind: 'checkout-signing-secret', offset: 7 }]);
    expect(kinds(`${secret.slice(0, -1)} and ${secret}x`)).toEqual([]);
  });

  it('finds the test cards bare, with spaces or dashes, inside longer digit runs, and under a card-number key', () => {
    for (const card of KNOWN_TEST_CARDS) {
      expect(passesLuhn(card)).toBe(true);
      expect(kinds(`"n":"${card}"`)).toEqual(['card-number']);
      expect(kinds(`n=${card.replace(/(\d{4})(?=\d)/g, '$1 ')}`)).toEqual(['card-number']);
      expect(kinds(`n=${card.replace(/(\d{4})(?=\d)/g, '$1-')}.`)).toEqual(['card-number']);
    }
    expect(kinds('{"n":41111111111111110}')).toEqual(['card-number']);
    // A card the tests do not use: found when printed in groups, or under a card-number key.
    expect(kinds('card 4532 0151 1283 0366 charged')).toEqual(['card-number']);
    expect(kinds('{"creditcard_number":"4532015112830366"}')).toEqual(['card-number']);
    expect(kinds('{\\"card_number\\":\\"4532015112830366\\"}')).toEqual(['card-number']);
  });

  it("finds the checkout card form's number and CVV in a form-encoded body, however the browser wrote the spaces", () => {
    const found = (text: string) => [...new Set(kinds(text))];
    for (const number of ['4532015112830366', '4532+0151+1283+0366', '4532%200151%201283%200366', '4532-0151-1283-0366', '4532%2D0151%2D1283%2D0366']) {
      const body = `creditcard_holder=ANA+SILVA&creditcard_number=${number}&creditcard_cvv=987&creditcard_month=12&csrf_token=abc`;
      expect(found(body), number).toEqual(['card-number', 'cvv']);
      expect(found(JSON.stringify({ message: 'oops', body })), number).toEqual(['card-number', 'cvv']);
    }
    // Before this form rule, a card the tests do not use, form-encoded with `+`, went unseen.
    expect(kinds('creditcard_number=4532+0151+1283+0366')).toEqual(['card-number']);
    // A test card under the form's key: found (as a test card and under the key).
    expect(found('creditcard_number=4000000000000002&creditcard_cvv=1234')).toEqual(['card-number', 'cvv']);
    // Not a card: the last four, a number that fails Luhn, a 16-digit id under another name, a CVV key with no 3–4 digit value.
    expect(kinds('creditcard_number=1111&last4=1111&creditcard_number=4532015112830367&tx_ref=1234567812345670&creditcard_cvv=&cvv=12&cvv=12345')).toEqual([]);
  });

  it('knows every card the tests charge (test/support/charges.ts)', () => {
    expect(KNOWN_TEST_CARDS).toContain(cardBody().creditcard_number);
  });

  it('finds CVVs as a cvv/cvc field with a value, also inside an escaped JSON string', () => {
    expect(kinds('{"creditcard_cvv":"987"}')).toEqual(['cvv']);
    expect(kinds('{"cvv": 123}')).toEqual(['cvv']);
    expect(kinds('{"body":"{\\"cvc\\":\\"1234\\"}"}')).toEqual(['cvv']);
    expect(kinds('{"card":{"securityCode":"12","cvvPresent":true}}')).toEqual([]);
  });

  it('finds CPFs and CNPJs with valid check digits in any punctuation, and the alphanumeric test CNPJ', () => {
    for (const document of [
      '529.982.247-25',
      '52998224725',
      '11.222.333/0001-81',
      '11222333000181',
      '12.ABC.345/01DE-35',
      '12.abc.345/01de-35',
      '12ABC34501DE35',
    ]) {
      expect(kinds(`{"document":"${document}"}`), document).toEqual(['taxpayer-document']);
    }
    expect(kinds('pixkey=52998224725&x')).toEqual(['taxpayer-document']);
  });

  it('finds every random CPF the integration tests create (test/support/customers.ts), bare or punctuated', () => {
    fc.assert(
      fc.property(
        fc.constant(null).map(() => randomCpf()),
        (cpf) => {
          const punctuated = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
          return kinds(`{"document":"${cpf}"}`).includes('taxpayer-document') && kinds(`doc ${punctuated}`).includes('taxpayer-document');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reports where, never the value', () => {
    const secret = newSecretKey();
    const text = `prefix ${secret} and 529.982.247-25`;
    const leaks = findLeaks(text);
    expect(leaks).toEqual([
      { kind: 'secret-key', offset: 7 },
      { kind: 'taxpayer-document', offset: text.indexOf('529.') },
    ]);
    expect(JSON.stringify(leaks)).not.toContain(secret);
    expect(JSON.stringify(leaks)).not.toContain('529');
  });
});

describe('findLeaks: no false alarms on what the service stores and logs', () => {
  it('ignores a sealed value whose ciphertext happens to hold a token or webhook-secret prefix', () => {
    const ciphertext = `abcpgt_${'x'.repeat(40)}${'y'.repeat(20)}whsec_${'z'.repeat(43)}UFVCL${'q'.repeat(30)}`;
    expect(findLeaks(`{"bodySealed":"v1.${'A'.repeat(16)}.${ciphertext}.${'t'.repeat(22)}"}`)).toEqual([]);
    // The same text outside a sealed value is reported.
    expect(findLeaks(`{"body":"${ciphertext}"}`).map((l) => l.kind)).toEqual(expect.arrayContaining(['token', 'webhook-secret']));
  });

  it('ignores sealed values, even of documents and secrets, whatever digits the ciphertext holds', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (key) => {
        const sealed = [randomCpf(), '11222333000181', '4111111111111111', newWebhookSecret()].map((v) => seal(v, Buffer.from(key), 'customer:acct:1'));
        return sealed.every((s) => findLeaks(`{"documentSealed":"${s}"}`).length === 0);
      }),
      { numRuns: 300 },
    );
    // A ciphertext that happens to hold a digit run shaped like a CPF is still a ciphertext.
    expect(findLeaks(`v1.${'A'.repeat(16)}.52998224725-x.${'B'.repeat(22)}`)).toEqual([]);
  });

  it('ignores ISO timestamps, UUIDs, epoch times, numeric ids, references, txids and amounts', () => {
    const line = JSON.stringify({
      level: 'INFO',
      message: 'request',
      timestamp: '2026-11-23T04:12:50.321Z',
      at: '2026-11-23T04:12:50-03:00',
      requestId: '31e4d0b7-0722-41a2-8b0b-f8940d79cd1e',
      numericUuid: '12345678-1234-4123-8123-123456789012',
      ttl: 1_795_000_000,
      epochMs: 1_795_000_000_123,
      sk: 'CUSTOMER#0000123456789012',
      invoiceId: 115_292_150_460_684,
      reference: 'INV-PJA7WH',
      txid: 'INVPJA7WH12345678901234567890123',
      total: '190.00',
      ms: 109,
    });
    expect(findLeaks(line)).toEqual([]);
  });

  it('does not take 16-digit ids that pass Luhn for cards (only the known cards, grouped PANs or card keys)', () => {
    expect(passesLuhn('1234567812345670')).toBe(true);
    expect(findLeaks('{"id":1234567812345670,"GSI1SK":"1234567812345670"}')).toEqual([]);
  });

  it("looks only for the service's own secrets in free text (a phone whose digits pass the CPF check, a card number as an item name)", () => {
    expect(findLeaks('{"mobilephone":"52998224725","phone":"+55 (11) 3333-4444","item_name":"4111111111111111","description":"529.982.247-25"}')).toEqual([]);
    expect(findLeaks('4111 1111 1111 1111, 529.982.247-25', { freeText: true })).toEqual([]);
    expect(kinds(`free text with ${newSecretKey()}`, { freeText: true })).toEqual(['secret-key']);
    expect([...new Set(kinds('{"phone":"1","document":"52998224725","creditcard_number":"4111111111111111"}'))]).toEqual(['taxpayer-document', 'card-number']);
  });

  it('does not take a CPF-shaped number with wrong check digits for a document', () => {
    expect(findLeaks('{"document":"52998224726","doc":"529.982.247-26","cnpj":"11222333000180"}')).toEqual([]);
  });
});

describe('findItemLeaks and findLogLeaks', () => {
  it("takes a slot log's keys as slot ids: a random reference that spells CVV is no CVV; a cvv field elsewhere still is", () => {
    expect(findItemLeaks({ PK: 'DECL#CARD#f', SK: 'DECL', slots: { 'INV-T2CVV7': 1_796_000_000_000, 'INV-CVC123': 1_796_000_000_001 } })).toEqual([]);
    expect(findItemLeaks({ PK: 'X#1', SK: 'X', card: { cvv: '123' } })).toEqual([{ kind: 'cvv', attribute: 'card.cvv' }]);
  });

  it("takes a checkout's merchant text (tx_ref, title, payer names, callback URL) as free text, in the checkout and its tx_ref's reservation", () => {
    const odd = { a: '4111111111111111', b: '529.982.247-25' };
    const checkout = {
      PK: 'CHK#CHK-ABCDEFGH',
      SK: 'CHECKOUT',
      txRef: odd.b,
      title: odd.a,
      firstName: odd.b,
      lastName: odd.a,
      productName: odd.a,
      productReference: odd.b,
      callbackUrl: `https://shop.example/${odd.a}`,
    };
    expect(findItemLeaks(checkout)).toEqual([]);
    expect(findItemLeaks({ PK: `CHKTX#acct_x#${odd.b}`, SK: 'CHKTX', txRef: odd.b, reference: 'CHK-ABCDEFGH' })).toEqual([]);
    expect(findLeaks(JSON.stringify({ checkout: { tx_ref: odd.b, title: odd.a, first_name: odd.b } }))).toEqual([]);
    // A secret typed there is still found; the same text in any other attribute is a leak.
    expect(findItemLeaks({ ...checkout, title: newSecretKey() })).toEqual([{ kind: 'secret-key', attribute: 'title' }]);
    expect(findItemLeaks({ PK: 'CHK#CHK-ABCDEFGH', SK: 'CHECKOUT', holder: odd.a, payerDocument: odd.b })).toEqual([
      { kind: 'card-number', attribute: 'holder' },
      { kind: 'taxpayer-document', attribute: 'payerDocument' },
    ]);
  });

  it("takes the merchant text an event or a card invoice echoes (an invoice's invoice_no, an order's tx_ref and product, a card's description) as free text; a document elsewhere in the event is a leak", () => {
    const cpf = '52998224725';
    const event = (data: Record<string, unknown>) => ({ PK: 'EVT#evt_1', SK: 'EVT', event: { id: 'evt_1', type: 'invoice.paid', data } });
    expect(findItemLeaks(event({ invoice: { reference: 'INV-AAAAAA', invoice_no: cpf, total: '1.00' } }))).toEqual([]);
    expect(findItemLeaks(event({ order: { tx_ref: cpf, product: { reference: cpf, name: cpf }, customer: { name: cpf, email: 'a@example.com' } } }))).toEqual(
      [],
    );
    expect(findItemLeaks({ PK: 'INV#INV-AAAAAA', SK: 'INVOICE', itemName: cpf, card: { brand: 'visa', last4: '1111', description: cpf } })).toEqual([]);
    expect(findItemLeaks(event({ invoice: { reference: 'INV-AAAAAA', invoice_no: 'N1', document: cpf } }))).toEqual([
      { kind: 'taxpayer-document', attribute: 'event.data.invoice.document' },
    ]);
  });

  it('names the attribute path of a stored leak, walking maps, lists and JSON bodies', () => {
    const key = Buffer.alloc(32, 3);
    const item = {
      PK: 'IDEM#acct_x#customer-0001',
      SK: 'IDEM',
      body: JSON.stringify({ customer: { id: 1, document: '52998224725', mobilephone: '11987654321' } }),
      documentSealed: seal('52998224725', key, 'customer:acct_x:1'),
      mobilephone: '52998224725',
      itemName: '4111111111111111',
      description: `pay with ${newSecretKey()}`,
      card: { brand: 'visa', last4: '1111', cvv: '987', number: '4111111111111111' },
      history: ['ok', 'token pgt_abcdefghijklmnop.x'],
    };
    expect(findItemLeaks(item)).toEqual([
      { kind: 'taxpayer-document', attribute: 'body' },
      { kind: 'secret-key', attribute: 'description' },
      { kind: 'cvv', attribute: 'card.cvv' },
      { kind: 'card-number', attribute: 'card.number' },
      { kind: 'token', attribute: 'history[1]' },
    ]);
    // The merchant's Idempotency-Key is part of the key of its record: free text too.
    expect(findItemLeaks({ PK: 'IDEM#acct_x#529.982.247-25', SK: 'IDEM' })).toEqual([]);
    expect(findItemLeaks({ PK: 'CUSTOMER#529.982.247-25', SK: 'X' })).toEqual([{ kind: 'taxpayer-document', attribute: 'PK' }]);
    expect(JSON.stringify(findItemLeaks(item))).not.toContain('52998224725');
  });

  it('numbers the log lines that leak, from a given line on', () => {
    const secret = newSecretKey();
    const log = ['banner', `secret key: ${secret}`, '{"level":"INFO","status":200}', `{"level":"INFO","doc":"529.982.247-25","key":"${secret}"}`].join('\n');
    expect(findLogLeaks(log)).toEqual([
      { kind: 'secret-key', line: 2 },
      { kind: 'taxpayer-document', line: 4 },
      { kind: 'secret-key', line: 4 },
    ]);
    expect(findLogLeaks(log, { firstLine: 3 })).toEqual([
      { kind: 'taxpayer-document', line: 4 },
      { kind: 'secret-key', line: 4 },
    ]);
  });
});

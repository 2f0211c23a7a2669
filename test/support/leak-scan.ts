/**
 * The leak detector: finds secrets and personal data in clear in a log line or a stored value. Pure
 * (no I/O): the sources (the table, log files) are read by test/support/leak-sources.ts.
 *
 * It detects by pattern, not only by exact values, and reports only the kind and where (never the
 * value), so its report can be printed:
 * - secret keys `SEC-` + 48 alphanumerics; Bearer tokens `pgt_…`; webhook secrets `whsec_…`; checkout
 *   signing secrets `cks_` + 43 base64url characters; Basic credentials (base64 of `PUB-…:…`);
 * - card numbers: a run of 13 to 19 digits (spaces or dashes allowed between them) passing Luhn that
 *   holds one of the known test cards, or that is written in groups of four (how a PAN is printed), or
 *   that sits under a card-number key (`creditcard_number`, `card_number`, `pan`), as a JSON field or
 *   as a form field (the hosted checkout's card form: `creditcard_number=4111+1111+…`);
 * - CVVs: a `cvv`/`cvc` key (any prefix or suffix, e.g. `creditcard_cvv`) with a 3–4 digit value, as a
 *   JSON field or a form field;
 * - taxpayer documents: a CPF or CNPJ with valid check digits, punctuated (`529.982.247-25`,
 *   `11.222.333/0001-81`, also the alphanumeric CNPJ) or bare (11 or 14 digits standing alone), and
 *   the known alphanumeric test CNPJs in any punctuation.
 * It ignores sealed values (`v1.<iv>.<ciphertext>.<tag>`, base64url), ISO timestamps and UUIDs, so ids,
 * times and ciphertexts do not raise false alarms. In free text the merchant writes and the service
 * stores as given (names, e-mails, phones, item names, descriptions, notes, the Idempotency-Key, a
 * checkout's tx_ref, title and payer names…) only
 * the service's own secrets are looked for (keys, tokens, webhook secrets, Basic credentials): a phone
 * of 11 digits is not a CPF, and the fuzz tests' odd strings (a card number as an item name) are what
 * the merchant chose to write there, not data the service took from a sensitive field.
 */
import { cnpj, cpf } from 'cpf-cnpj-validator';
import { SIMULATED_CARDS } from '../../shared/adapters/providers/simulated';

export type LeakKind =
  'secret-key' | 'token' | 'webhook-secret' | 'checkout-signing-secret' | 'basic-credentials' | 'card-number' | 'cvv' | 'taxpayer-document';

/** One finding: what kind of secret, and where it starts in the scanned text. Never the value. */
export type Leak = { kind: LeakKind; offset: number };

/**
 * Card numbers the tests and the simulated provider use (test/support/charges.ts, docs/decisions.md),
 * plus the card networks' public test numbers. All pass Luhn.
 */
export const KNOWN_TEST_CARDS: readonly string[] = [
  ...Object.values(SIMULATED_CARDS),
  '4242424242424242',
  '4012888888881881',
  '4000056655665556',
  '5555555555554444',
  '5105105105105100',
  '2223003122003222',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
  '3566002020360505',
  '36227206271667',
  '6062825624254001',
];

/** Taxpayer documents the tests use that no pattern catches bare (the alphanumeric CNPJ). */
export const KNOWN_TEST_DOCUMENTS: readonly string[] = ['12ABC34501DE35'];

export type LeakScanOptions = {
  /** Card numbers to find even bare and unformatted (default KNOWN_TEST_CARDS). */
  cards?: readonly string[];
  /** Documents to find in any punctuation, beside the check-digit patterns (default KNOWN_TEST_DOCUMENTS). */
  documents?: readonly string[];
  /** The text is merchant free text stored as given (see FREE_TEXT_ATTRIBUTES): only the service's own secrets are looked for. */
  freeText?: boolean;
};

const PREFIXED: ReadonlyArray<{ kind: LeakKind; pattern: RegExp }> = [
  { kind: 'secret-key', pattern: /SEC-[A-Za-z0-9]{48}(?![A-Za-z0-9])/g },
  { kind: 'token', pattern: /pgt_[A-Za-z0-9_-]{8,}/g },
  { kind: 'webhook-secret', pattern: /whsec_[A-Za-z0-9_-]{20,}/g },
  { kind: 'checkout-signing-secret', pattern: /cks_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g },
];

/** `PUB` in base64 is `UFVC`: a Basic credential of this service's keys starts with `UFVCL`. */
const BASIC_CREDENTIALS = /UFVCL[A-Za-z0-9+/]{16,}={0,2}/g;

/** Sealed values (shared/platform/crypto/personal-data.ts): `v1.` + 12-byte iv, ciphertext, 16-byte tag, base64url. */
const SEALED = /v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]{22}(?![A-Za-z0-9_-])/g;
const ISO_TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const UUID = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;
/** Free-text JSON fields (phones, names, e-mails, item names, descriptions…), also with escaped quotes inside a JSON string. */
const FREE_TEXT_FIELD =
  /(\\?"(?:[A-Za-z_]*phone[A-Za-z_]*|name|client|email|invoice_no|item_name|description|notes|instructions|street|district|city|tx_ref|title|first_name|last_name|product_name|product_reference)\\?"\s*:\s*\\?")([^"\\]*)/gi;

/** Runs of digits with single spaces or dashes between them, standing alone. */
const DIGIT_RUN = /(?<![0-9A-Za-z])\d(?:[ -]?\d)*(?![0-9A-Za-z])/g;
const GROUPED_PAN = /^\d{4}([ -])\d{4}\1\d{4}\1\d{1,7}$|^\d{4}([ -])\d{6}\2\d{4,5}$/;
const CARD_KEY = /\\?"[A-Za-z_]*(?:card_?number|cardnumber|pan)\\?"\s*:\s*\\?"?([0-9][0-9 -]{11,})/gi;
const CVV_KEY = /\\?"[A-Za-z_]*(?:cvv|cvc)[A-Za-z0-9_]*\\?"\s*:\s*\\?"?\d{3,4}(?!\d)/gi;
/** The same keys in a form-encoded body (a browser writes a space as `+`, and may escape it as %20 or a dash as %2D). */
const FORM_CARD_KEY = /(?<![A-Za-z0-9_])[A-Za-z_]*(?:card_?number|cardnumber|pan)=((?:\d|\+|-|%20|%2[dD])+)/gi;
const FORM_CVV_KEY = /(?<![A-Za-z0-9_])[A-Za-z_]*(?:cvv|cvc)[A-Za-z0-9_]*=\d{3,4}(?![0-9])/gi;

const CPF_PUNCTUATED = /(?<![0-9A-Za-z])\d{3}\.\d{3}\.\d{3}-\d{2}(?![0-9A-Za-z])/g;
const CNPJ_PUNCTUATED = /(?<![0-9A-Za-z])[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}(?![0-9A-Za-z])/g;
const BARE_DOCUMENT = /(?<![0-9A-Za-z])(?:\d{11}|\d{14})(?![0-9A-Za-z])/g;

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

function isDocument(text: string): boolean {
  const bare = text.replace(/[.\-/\s]/g, '').toUpperCase();
  if (/^\d{11}$/.test(bare)) return cpf.isValid(bare);
  if (/^[0-9A-Z]{12}\d{2}$/.test(bare)) return cnpj.isValid(bare);
  return false;
}

/** Blanks every match with spaces of the same length, so offsets stay those of the original text. */
function blank(text: string, pattern: RegExp): string {
  return text.replace(pattern, (match: string) => ' '.repeat(match.length));
}

/** Blanks the values of free-text fields, keeping their keys. */
function blankFreeText(text: string): string {
  return text.replace(FREE_TEXT_FIELD, (match: string, key: string) => key + ' '.repeat(match.length - key.length));
}

function each(pattern: RegExp, text: string, visit: (match: RegExpExecArray) => void): void {
  for (const match of text.matchAll(pattern)) visit(match as RegExpExecArray);
}

/** Every secret or personal datum in clear in `text` (one log line, or one stored value). */
export function findLeaks(text: string, options: LeakScanOptions = {}): Leak[] {
  const cards = options.cards ?? KNOWN_TEST_CARDS;
  const documents = (options.documents ?? KNOWN_TEST_DOCUMENTS).map((d) => d.replace(/[^0-9A-Za-z]/g, '').toUpperCase());
  const leaks: Leak[] = [];
  const add = (kind: LeakKind, offset: number) => {
    if (!leaks.some((l) => l.kind === kind && l.offset === offset)) leaks.push({ kind, offset });
  };

  // A ciphertext is random base64url: it may hold `pgt_…` or `whsec_…` by chance (a ~10 KB sealed answer does, now
  // and then). Sealed values are blanked before any pattern looks at the text.
  const unsealed = blank(text, SEALED);
  for (const { kind, pattern } of PREFIXED) each(pattern, unsealed, (m) => add(kind, m.index));
  each(BASIC_CREDENTIALS, unsealed, (m) => {
    const decoded = Buffer.from(m[0], 'base64').toString('utf8');
    if (/^PUB-[A-Za-z0-9]+:./.test(decoded)) add('basic-credentials', m.index);
  });

  if (options.freeText) return leaks.sort((a, b) => a.offset - b.offset);

  // What is not a secret (ciphertexts, times, request ids, free text) is blanked before looking at digits.
  let masked = blank(unsealed, ISO_TIMESTAMP);
  masked = blank(masked, UUID);
  masked = blankFreeText(masked);

  each(CVV_KEY, masked, (m) => add('cvv', m.index));
  each(CARD_KEY, masked, (m) => {
    if (passesLuhn((m[1] ?? '').replace(/\D/g, ''))) add('card-number', m.index);
  });
  each(FORM_CVV_KEY, masked, (m) => add('cvv', m.index));
  each(FORM_CARD_KEY, masked, (m) => {
    const digits = (m[1] ?? '')
      .replace(/%2[dD]/g, '')
      .replace(/%20/g, '')
      .replace(/\D/g, '');
    if (digits.length >= 12 && digits.length <= 19 && passesLuhn(digits)) add('card-number', m.index);
  });
  each(DIGIT_RUN, masked, (m) => {
    const digits = m[0].replace(/\D/g, '');
    const known = cards.some((card) => digits.includes(card));
    const printed = digits.length >= 13 && digits.length <= 19 && GROUPED_PAN.test(m[0]) && passesLuhn(digits);
    if (known || printed) add('card-number', m.index);
  });

  each(CPF_PUNCTUATED, masked, (m) => {
    if (isDocument(m[0])) add('taxpayer-document', m.index);
  });
  each(CNPJ_PUNCTUATED, masked, (m) => {
    if (isDocument(m[0])) add('taxpayer-document', m.index);
  });
  each(BARE_DOCUMENT, masked, (m) => {
    if (isDocument(m[0])) add('taxpayer-document', m.index);
  });
  if (documents.length > 0) {
    each(/(?<![0-9A-Za-z])[0-9A-Za-z](?:[.\-/ ]?[0-9A-Za-z]){10,17}(?![0-9A-Za-z])/g, masked, (m) => {
      const bare = m[0].replace(/[^0-9A-Za-z]/g, '').toUpperCase();
      if (documents.includes(bare)) add('taxpayer-document', m.index);
    });
  }
  return leaks.sort((a, b) => a.offset - b.offset);
}

/** A finding in a stored item: the attribute's path (e.g. `body` or `pix.copy`), never its value. */
export type ItemLeak = { kind: LeakKind; attribute: string };

const CVV_ATTRIBUTE = /cvv|cvc|security_?code/i;

/**
 * Stored attributes that hold the merchant's free text as given (customer, invoice, withdraw, account,
 * ledger, delivery and checkout items), by path. The Idempotency-Key, chosen by the merchant, is part
 * of the `PK` of `IDEM#` items, and a checkout's tx_ref of the `PK` of `CHKTX#` items.
 */
export const FREE_TEXT_ATTRIBUTES: readonly string[] = [
  'name',
  'email',
  'phone',
  'mobilephone',
  'street',
  'number',
  'district',
  'city',
  'client',
  'description',
  'invoiceNo',
  'itemName',
  // A card invoice's description is its item_name (a checkout's: its title), as given.
  'card.description',
  'notes',
  'merchantName',
  'payerName',
  'payerEmail',
  'boleto.instructions',
  'reason',
  'url',
  'lastError',
  // A hosted checkout (CHK# items), as the merchant's form gave it; its tx_ref also keys the tx_ref's reservation (CHKTX#).
  'txRef',
  'title',
  'firstName',
  'lastName',
  'productName',
  'productReference',
  'callbackUrl',
  // The same merchant text echoed in the events (EVT# items) it appears in: an invoice's invoice_no (a
  // checkout's invoices carry its tx_ref there), an order's tx_ref and product. A delivery's JSON body
  // masks these fields by name (FREE_TEXT_FIELD above); the event item holds them as attributes.
  'event.data.invoice.invoice_no',
  'event.data.order.tx_ref',
  'event.data.order.product.reference',
  'event.data.order.product.name',
  'event.data.order.customer.name',
  'event.data.order.customer.email',
];

/** Keys that hold the merchant's own text: its Idempotency-Key (IDEM#…), a checkout's tx_ref (CHKTX#<account>#<tx_ref>). */
const FREE_TEXT_KEYS = ['IDEM#', 'CHKTX#'];

const isFreeText = (path: string, value: unknown) =>
  FREE_TEXT_ATTRIBUTES.includes(path) || (path === 'PK' && FREE_TEXT_KEYS.some((prefix) => String(value).startsWith(prefix)));

/** A key of an attempt slot log's map (shared/adapters/dynamo/attempt-slots.ts: `slots.<slot id>`). */
const isSlotId = (path: string) => /^slots\.[^.]+$/.test(path);

/** Every secret in clear in a stored item, walking nested maps and lists; values are scanned as text. */
export function findItemLeaks(item: Record<string, unknown>, options: LeakScanOptions = {}): ItemLeak[] {
  const found: ItemLeak[] = [];
  const visit = (value: unknown, path: string, name: string) => {
    if (value === null || value === undefined) return;
    // A slot log's keys are slot ids (random references, request ids), never field names: an id that happens to spell "CVV" is not one.
    if (CVV_ATTRIBUTE.test(name) && !isSlotId(path) && String(value).length > 0) found.push({ kind: 'cvv', attribute: path });
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') {
      for (const leak of findLeaks(String(value), { ...options, freeText: isFreeText(path, value) })) {
        if (!found.some((f) => f.kind === leak.kind && f.attribute === path)) found.push({ kind: leak.kind, attribute: path });
      }
      return;
    }
    if (value instanceof Set || Array.isArray(value)) {
      [...value].forEach((v: unknown, i) => visit(v, `${path}[${i}]`, name));
      return;
    }
    if (value instanceof Uint8Array) {
      visit(Buffer.from(value).toString('utf8'), path, name);
      return;
    }
    if (typeof value === 'object') {
      for (const [key, v] of Object.entries(value as Record<string, unknown>)) visit(v, path ? `${path}.${key}` : key, key);
    }
  };
  visit(item, '', '');
  return found;
}

/** A finding in a log: the 1-based line number and the kind, never the line. */
export type LineLeak = { kind: LeakKind; line: number };

/** Every secret in clear in a log text, by line. */
export function findLogLeaks(text: string, options: LeakScanOptions & { firstLine?: number } = {}): LineLeak[] {
  const found: LineLeak[] = [];
  text.split('\n').forEach((line, i) => {
    const number = i + 1;
    if (number < (options.firstLine ?? 1)) return;
    for (const kind of new Set(findLeaks(line, options).map((l) => l.kind))) found.push({ kind, line: number });
  });
  return found;
}

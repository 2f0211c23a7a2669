/**
 * What the logger does to every value it prints (pure functions): values under sensitive keys are
 * replaced whole, secrets the service issues and card or taxpayer data found in free text (messages,
 * error messages, stacks) are cut out, and errors are reduced to their name, kind, code, message and
 * stack. It is the last line of defence: the code already logs identifiers only.
 */

export const REDACTED = '[redacted]';

/** Keys whose value is never printed, whatever it holds (JSON fields and form fields alike). */
const SENSITIVE_KEY =
  /cvv|cvc|security_?code|card_?number|cardnumber|^pan$|secret|password|passphrase|token|authorization|cookie|document|^cpf$|^cnpj$|pix_?key|api_?key|private_?key|credential/i;

/** Keys holding the service's identifiers (request ids, invoice ids, event ids): only issued secrets are looked for there. */
const IDENTIFIER_KEY = /id$/i;

/** Secrets this service issues or receives, by their shape. */
const ISSUED_SECRETS: readonly RegExp[] = [
  /SEC-[A-Za-z0-9]{8,}/g,
  /pgt_[A-Za-z0-9._-]+/g,
  /whsec_[A-Za-z0-9_-]+/g,
  /cks_[A-Za-z0-9_-]+/g,
  /UFVCL[A-Za-z0-9+/]{16,}={0,2}/g,
];
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
/** A CVV next to its name in free text: `cvv=123`, `"creditcard_cvv":"123"`, `CVV 1234`. */
const CVV_IN_TEXT = /((?:cvv|cvc|security[_ ]?code)[^0-9\n]{0,12})\d{3,4}(?!\d)/gi;
/** Maximal runs of 13 to 19 digits, single spaces or dashes allowed between them (a PAN as printed or bare). */
const DIGIT_RUN = /(?<![0-9A-Za-z]|\d[ -])\d(?:[ -]?\d){12,18}(?![0-9A-Za-z]|[ -]\d)/g;
const CPF_PUNCTUATED = /(?<![0-9A-Za-z])\d{3}\.\d{3}\.\d{3}-\d{2}(?![0-9A-Za-z])/g;
const CNPJ_PUNCTUATED = /(?<![0-9A-Za-z])[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}(?![0-9A-Za-z])/g;
/** A bare CPF (11 digits) or CNPJ (14 characters, the last two digits: alphanumeric CNPJs included), standing alone. */
const BARE_DOCUMENT = /(?<![0-9A-Za-z])(?:\d{11}|[0-9A-Z]{12}\d{2})(?![0-9A-Za-z])/g;

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

/** Check digit of a CPF or CNPJ prefix: characters valued by code point − 48 (so alphanumeric CNPJs work too). */
function checkDigit(prefix: string, weights: readonly number[], cpf: boolean): number {
  let sum = 0;
  for (let i = 0; i < prefix.length; i += 1) sum += (prefix.charCodeAt(i) - 48) * (weights[i] ?? 0);
  if (cpf) return ((sum * 10) % 11) % 10;
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

const CPF_WEIGHTS = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/** A CPF (11 digits) or CNPJ (14 characters) with valid check digits; punctuation ignored. */
export function isTaxpayerDocument(text: string): boolean {
  const bare = text.replace(/[.\-/\s]/g, '').toUpperCase();
  if (/^\d{11}$/.test(bare)) {
    return (
      checkDigit(bare.slice(0, 9), CPF_WEIGHTS.slice(1), true) === Number(bare[9]) && checkDigit(bare.slice(0, 10), CPF_WEIGHTS, true) === Number(bare[10])
    );
  }
  if (/^[0-9A-Z]{12}\d{2}$/.test(bare)) {
    return (
      checkDigit(bare.slice(0, 12), CNPJ_WEIGHTS.slice(1), false) === Number(bare[12]) &&
      checkDigit(bare.slice(0, 13), CNPJ_WEIGHTS, false) === Number(bare[13])
    );
  }
  return false;
}

/** Cuts issued secrets (and, outside identifier fields, card numbers, CVVs and taxpayer documents) out of a text. */
export function redactText(text: string, identifier = false): string {
  let out = text;
  for (const pattern of ISSUED_SECRETS) out = out.replace(pattern, REDACTED);
  out = out.replace(AUTH_SCHEME, (_match, scheme: string) => `${scheme} ${REDACTED}`);
  if (identifier) return out;
  out = out.replace(CVV_IN_TEXT, (_match, before: string) => `${before}${REDACTED}`);
  out = out.replace(DIGIT_RUN, (run) => (passesLuhn(run.replace(/\D/g, '')) ? REDACTED : run));
  out = out.replace(CPF_PUNCTUATED, REDACTED).replace(CNPJ_PUNCTUATED, REDACTED);
  return out.replace(BARE_DOCUMENT, (run) => (isTaxpayerDocument(run) ? REDACTED : run));
}

/** What is printed of an error: never its other own properties (an SDK error's response, a condition failure's item). */
export type LoggedError = { name: string; kind?: string; code?: string; message: string; stack?: string; cause?: LoggedError };

export function loggedError(error: Error, depth = 0): LoggedError {
  const { kind, code } = error as Error & { kind?: unknown; code?: unknown };
  const cause = error.cause instanceof Error && depth < 3 ? loggedError(error.cause, depth + 1) : undefined;
  return {
    name: error.name,
    ...(typeof kind === 'string' ? { kind } : {}),
    ...(typeof code === 'string' ? { code: redactText(code) } : {}),
    message: redactText(error.message),
    ...(error.stack ? { stack: redactText(error.stack) } : {}),
    ...(cause ? { cause } : {}),
  };
}

/**
 * The logger's JSON replacer: called for every key and value of a log line before it is printed
 * (Powertools Logger `jsonReplacerFn`), nested values included.
 */
export function redactLogValue(key: string, value: unknown): unknown {
  if (value instanceof Error) return loggedError(value);
  if (value === null || value === undefined || typeof value === 'boolean') return value;
  if (key !== '' && SENSITIVE_KEY.test(key)) return REDACTED;
  if (typeof value === 'string') return redactText(value, IDENTIFIER_KEY.test(key));
  // A card number or document passed as a number.
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1e10) return redactText(String(value)) === String(value) ? value : REDACTED;
  return value;
}

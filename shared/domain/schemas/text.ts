import * as z from 'zod';

/**
 * Free text of requests (names, addresses, descriptions, notes): one rule for every field
 * (issue 17, docs/decisions.md "Identifiers and text fields").
 *
 * - Stored NFC-normalized and trimmed ('e\u0301' is stored as 'é').
 * - Refused: C0 controls (NUL…U+001F) and DEL, C1 controls (U+0080–U+009F), lone surrogates, the
 *   bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069: they reorder what
 *   a receipt or a terminal shows), and values made only of invisible characters (zero-width and
 *   other format characters, Hangul fillers, blank Braille, variation selectors).
 * - Line breaks only in multi-line fields (`notes`, boleto `instructions`): there \n, \r\n, \r,
 *   U+2028 and U+2029 are stored as \n, and a tab is allowed; a single-line field refuses both.
 * - The bidirectional marks (U+200E, U+200F, U+061C) are allowed: they reorder nothing beyond
 *   themselves and right-to-left names need them; alone they are invisible, so refused.
 */

export type TextMessages = {
  control: string;
  multiLineControl: string;
  lineBreak: string;
  surrogate: string;
  bidi: string;
  invisible: string;
  /** The message of the length limit; zod's own when absent. */
  tooLong?: (max: number) => string;
};

/** The API's messages (English, as the other validation messages). */
export const TEXT_MESSAGES: TextMessages = {
  control: 'Must not contain control characters (U+0000–U+001F, U+007F–U+009F)',
  multiLineControl: 'Must not contain control characters other than line breaks and tabs (U+0000–U+001F, U+007F–U+009F)',
  lineBreak: 'Must be a single line (no line breaks)',
  surrogate: 'Must be valid Unicode text (a lone surrogate is not)',
  bidi: 'Must not contain bidirectional embedding, override or isolate characters (U+202A–U+202E, U+2066–U+2069)',
  invisible: 'Must contain visible characters, not only zero-width or format characters',
};

/** The hosted checkout's messages (pt-BR, shown to payers and merchants). */
export const PT_BR_TEXT_MESSAGES: TextMessages = {
  control: 'Não pode conter caracteres de controle',
  multiLineControl: 'Não pode conter caracteres de controle além de quebras de linha e tabulações',
  lineBreak: 'Deve ter uma única linha (sem quebras de linha)',
  surrogate: 'Deve ser um texto Unicode válido',
  bidi: 'Não pode conter caracteres de controle de direção do texto (U+202A–U+202E, U+2066–U+2069)',
  invisible: 'Deve conter caracteres visíveis, não apenas caracteres invisíveis',
};

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/** A control character: C0 (a tab only where `allowTab`, LF and CR are line breaks, checked apart), DEL, C1 (NEL U+0085 included). */
function hasControl(value: string, allowTab: boolean): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 && code !== LF && code !== CR && !(allowTab && code === TAB)) return true;
    if (code >= 0x7f && code <= 0x9f) return true;
  }
  return false;
}
const LINE_BREAK = /[\n\r\u2028\u2029]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const BIDI_FORMATTING = /[\u202A-\u202E\u2066-\u2069]/;
/** Characters that show nothing: white space, format characters (Cf), fillers, variation selectors, the grapheme joiner, blank Braille. */
const INVISIBLE = /^(?:[\p{White_Space}\p{Cf}\p{Variation_Selector}\u2800\u3164\uFFA0]|\u034F|\u115F|\u1160)+$/u;

/** The first refusal of a text (after normalization), or undefined when it is acceptable. */
export function textProblem(value: string, multiLine: boolean, messages: TextMessages = TEXT_MESSAGES): string | undefined {
  if (LONE_SURROGATE.test(value)) return messages.surrogate;
  if (!multiLine && LINE_BREAK.test(value)) return messages.lineBreak;
  if (hasControl(value, multiLine)) return multiLine ? messages.multiLineControl : messages.control;
  if (BIDI_FORMATTING.test(value)) return messages.bidi;
  if (value.length > 0 && INVISIBLE.test(value)) return messages.invisible;
  return undefined;
}

/** NFC form; a lone surrogate is kept as it is (normalize leaves it), for the check to refuse it. */
function toNfc(value: string): string {
  return value.normalize('NFC');
}

export type TextOptions = {
  /** The messages (default: the API's English ones). */
  messages?: TextMessages;
  /** The string schema to start from (e.g. one with its own "required" and "not text" messages). */
  base?: z.ZodString;
};

function textSchema(max: number, multiLine: boolean, options: TextOptions) {
  const messages = options.messages ?? TEXT_MESSAGES;
  const base = options.base ?? z.string();
  const nfc = multiLine ? base.overwrite((value) => toNfc(value).replace(/\r\n?|\u2028|\u2029/g, '\n')) : base.overwrite(toNfc);
  // Before trimming: JavaScript's trim also removes U+FEFF, so a value of only format characters would
  // otherwise become empty (and pass where the field is optional) instead of being refused.
  return nfc
    .superRefine((value, ctx) => {
      if (value.trim() === '' && !/^\p{White_Space}*$/u.test(value)) ctx.addIssue({ code: 'custom', message: messages.invisible });
    })
    .trim()
    .superRefine((value, ctx) => {
      const problem = textProblem(value, multiLine, messages);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    })
    .max(max, messages.tooLong ? messages.tooLong(max) : undefined);
}

/**
 * A single-line text of at most `max` characters (UTF-16 code units, after normalization): NFC,
 * trimmed, no control characters or line breaks, no bidi formatting, not only invisible characters.
 * It stays a ZodString: chain `.min(1)`, `.optional()`, `.describe()`.
 */
export function singleLineText(max: number, options: TextOptions = {}): z.ZodString {
  return textSchema(max, false, options);
}

/** A multi-line text (notes, instructions): as singleLineText, but line breaks (stored as \n) and tabs are allowed. */
export function multiLineText(max: number, options: TextOptions = {}): z.ZodString {
  return textSchema(max, true, options);
}

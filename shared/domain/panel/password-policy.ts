import { COMMON_PASSWORDS } from './common-passwords.generated';
import type { Estimator } from './password-strength';

/**
 * The merchant panel's password rules, after NIST SP 800-63B (5.1.1.2): a length floor, a generous
 * ceiling, a refusal of passwords known to be guessed first, and (issue 43) a strength estimate by
 * zxcvbn (@zxcvbn-ts/core, with the common, pt-BR and English dictionaries) that must reach
 * MIN_PASSWORD_SCORE, the account's name and the person's e-mail counted as guessed first. No forced
 * character classes and no expiry. Lengths count Unicode code points (an emoji is one character) of the
 * NFKC-normalized text, the text that is hashed (shared/adapters/crypto/password-hash.ts) and estimated.
 */
export const MIN_PASSWORD_LENGTH = 12;

/** Long enough for any passphrase; past it a password is refused, never cut (issue 43). */
export const MAX_PASSWORD_LENGTH = 128;

/** zxcvbn's score a new password needs (0 to 4; 3: "safely unguessable", about 10^8 guesses and more). */
export const MIN_PASSWORD_SCORE = 3;

export const PASSWORD_TOO_SHORT = `A senha precisa ter pelo menos ${MIN_PASSWORD_LENGTH} caracteres.`;
export const PASSWORD_TOO_LONG = `A senha pode ter no máximo ${MAX_PASSWORD_LENGTH} caracteres.`;
export const PASSWORD_TOO_COMMON = 'Esta senha é comum demais; escolha outra.';
export const PASSWORD_IS_EMAIL = 'A senha não pode ser o seu e-mail.';
export const PASSWORD_ONE_CHARACTER = 'A senha não pode repetir um só caractere.';
export const PASSWORD_WEAK = 'Esta senha é fácil de adivinhar; use uma frase mais longa, com palavras pouco comuns, sem o seu nome, e-mail ou o nome da conta.';

/** The form a password is compared in: NFKC (compatibility forms such as full-width letters folded), then lower case. */
function comparable(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** zxcvbn's warning when the password holds the e-mail or the account's name (its own pt-BR sentence is garbled). */
export const PERSONAL_DATA_WARNING = 'A senha não deve conter o seu e-mail nem o nome da conta.';

/** Text without its accents (NFD, combining marks dropped): "Pão" → "pao", as people type names in passwords. */
function unaccented(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFKC');
}

/**
 * What the estimator counts as guessed first (its `userInputs`): the e-mail, its local part and the
 * local part's pieces ("joao.silva" → "joao", "silva"), the account's name whole, without spaces and
 * word by word (words of 3 characters or more), each also without its accents. Lower case, NFKC.
 */
export function personalWords(context: PasswordContext): string[] {
  const email = comparable(context.email.trim());
  const at = email.lastIndexOf('@');
  const localPart = at > 0 ? email.slice(0, at) : '';
  const name = comparable((context.accountName ?? '').trim());
  const nameWords = name.split(/[^\p{L}\p{N}]+/u).filter((word) => [...word].length >= 3);
  const words = [email, localPart, ...localPart.split(/[._+-]+/), name, nameWords.join(''), ...nameWords];
  return [...new Set(words.flatMap((word) => [word, unaccented(word)]).filter((word) => word !== ''))];
}

/** Who a new password is for: the person's e-mail and their merchant account's name (undefined: the account has none). */
export type PasswordContext = { email: string; accountName: string | undefined };

/**
 * Set only inside a Lambda bundle, by esbuild's `define` (infra/cdk/bundling.ts, BESIDE_BUNDLE_MODULES):
 * the file, beside the bundle's index.mjs, that holds ./password-strength.ts bundled on its own. Never
 * set elsewhere (tests, the local server, the CLI import the module itself).
 */
declare const PASSWORD_STRENGTH_BESIDE_BUNDLE: string | undefined;

/**
 * zxcvbn and its dictionaries: in a Lambda, the file beside the bundle, read only now; elsewhere the
 * module. The bundling marks ./password-strength external, so the dictionaries (about 2.2 MB) are not
 * in any function's bundle nor read at its cold start.
 */
function strengthModule(): Promise<typeof import('./password-strength')> {
  if (typeof PASSWORD_STRENGTH_BESIDE_BUNDLE === 'string')
    return import(new URL(PASSWORD_STRENGTH_BESIDE_BUNDLE, import.meta.url).href) as Promise<typeof import('./password-strength')>;
  return import('./password-strength');
}

let estimator: Promise<Estimator> | undefined;

/**
 * zxcvbn, configured once per process at its first use: its dictionaries (about 2 MB, decompressed and
 * ranked in some 300 ms) load only when a password is set, never at a function's cold start, and the
 * functions that never set one do not import this module at all (test/shared/wiring/panel-access.test.ts).
 * `maxLength` is the policy's ceiling: every accepted password is estimated whole.
 */
function strengthEstimator(): Promise<Estimator> {
  estimator ??= (async () => {
    const zxcvbn = await strengthModule();
    return new zxcvbn.ZxcvbnFactory({
      dictionary: { ...zxcvbn.commonDictionary, ...zxcvbn.englishDictionary, ...zxcvbn.portugueseDictionary },
      graphs: zxcvbn.adjacencyGraphs,
      // zxcvbn's pt-BR warnings, the one about personal data in better words (it names what the estimate was given).
      translations: {
        ...zxcvbn.portugueseTranslations,
        warnings: { ...zxcvbn.portugueseTranslations.warnings, userInputs: PERSONAL_DATA_WARNING },
      },
      maxLength: MAX_PASSWORD_LENGTH,
    });
  })().catch((err: unknown) => {
    estimator = undefined;
    throw err;
  });
  return estimator;
}

/**
 * What is wrong with a new password, as messages for the merchant (pt-BR), in a fixed order: an
 * empty list accepts it. `context.email` is the merchant's e-mail: neither it nor its local part
 * (before the last @) may be the password, in any letter case. One character repeated (in any
 * letter case, "AaAaAaAaAaAa") is refused; a single character is only too short. A password that
 * passes those rules is then estimated (the NFKC text, with `personalWords` as the guessed-first
 * inputs): below MIN_PASSWORD_SCORE it is refused as weak, with zxcvbn's warning (pt-BR) when it has one.
 */
export async function passwordProblems(password: string, context: PasswordContext): Promise<string[]> {
  const normalized = password.normalize('NFKC');
  const codePoints = [...normalized];
  const key = comparable(password);
  const email = comparable(context.email.trim());
  const at = email.lastIndexOf('@');
  const localPart = at > 0 ? email.slice(0, at) : '';

  const problems: string[] = [];
  if (codePoints.length < MIN_PASSWORD_LENGTH) problems.push(PASSWORD_TOO_SHORT);
  if (codePoints.length > MAX_PASSWORD_LENGTH) problems.push(PASSWORD_TOO_LONG);
  if (COMMON_PASSWORDS.has(key)) problems.push(PASSWORD_TOO_COMMON);
  if (email !== '' && (key === email || key === localPart)) problems.push(PASSWORD_IS_EMAIL);
  if (codePoints.length > 1 && new Set(key).size === 1) problems.push(PASSWORD_ONE_CHARACTER);
  if (problems.length > 0) return problems;

  const estimate = (await strengthEstimator()).check(normalized, personalWords(context));
  if (estimate.score >= MIN_PASSWORD_SCORE) return [];
  const warning = estimate.feedback.warning;
  return warning ? [PASSWORD_WEAK, warning] : [PASSWORD_WEAK];
}

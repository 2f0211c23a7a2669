import { COMMON_PASSWORDS } from './common-passwords.generated';

/**
 * The merchant panel's password rules, after NIST SP 800-63B (5.1.1.2): a length floor, a generous
 * ceiling, and a refusal of passwords known to be guessed first. No forced character classes and no
 * expiry. Lengths count Unicode code points (an emoji is one character) of the NFKC-normalized text,
 * the text that is hashed (shared/adapters/crypto/password-hash.ts).
 */
export const MIN_PASSWORD_LENGTH = 12;

/** Long enough for any passphrase; the ceiling bounds the work one sign-in can ask for. */
export const MAX_PASSWORD_LENGTH = 128;

export const PASSWORD_TOO_SHORT = `A senha precisa ter pelo menos ${MIN_PASSWORD_LENGTH} caracteres.`;
export const PASSWORD_TOO_LONG = `A senha pode ter no máximo ${MAX_PASSWORD_LENGTH} caracteres.`;
export const PASSWORD_TOO_COMMON = 'Esta senha é comum demais; escolha outra.';
export const PASSWORD_IS_EMAIL = 'A senha não pode ser o seu e-mail.';
export const PASSWORD_ONE_CHARACTER = 'A senha não pode repetir um só caractere.';

/** The form a password is compared in: NFKC (compatibility forms such as full-width letters folded), then lower case. */
function comparable(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/**
 * What is wrong with a new password, as messages for the merchant (pt-BR), in a fixed order: an
 * empty list accepts it. `context.email` is the merchant's e-mail: neither it nor its local part
 * (before the last @) may be the password, in any letter case. One character repeated (in any
 * letter case, "AaAaAaAaAaAa") is refused; a single character is only too short.
 */
export function passwordProblems(password: string, context: { email: string }): string[] {
  const codePoints = [...password.normalize('NFKC')];
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
  return problems;
}

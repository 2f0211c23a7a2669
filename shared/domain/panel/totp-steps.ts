/**
 * The panel's authenticator codes (RFC 6238 TOTP): pure step arithmetic and the rule that a code is
 * used once. The HMAC itself lives in the adapter (shared/adapters/crypto/totp.ts); this file only
 * says which time step a moment falls in and whether a matched step may still be used.
 *
 * A code is accepted only when its step is strictly later than the last step the same person used
 * (PanelPerson.totpLastStep): the same code twice is refused, and so is an older code of the drift
 * window after a newer one, so a code seen over someone's shoulder cannot be replayed.
 */

/** Seconds per time step: what every authenticator app uses (RFC 6238's default). */
export const TOTP_PERIOD_SECONDS = 30;

/** Digits per code: what every authenticator app shows. */
export const TOTP_DIGITS = 6;

/** Steps of clock drift tolerated either way of the current one (one step: up to 30 s early or late). */
export const TOTP_WINDOW = 1;

/** The RFC 6238 time step of a moment: floor(unix seconds / 30). */
export function totpStepAt(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/**
 * Whether a code that matched `matchedStep` may be used by a person whose last used step is
 * `lastUsedStep` (undefined: never used one): only a strictly later step is accepted.
 */
export function acceptsStep(lastUsedStep: number | undefined, matchedStep: number): boolean {
  return lastUsedStep === undefined || matchedStep > lastUsedStep;
}

/** The input without the spaces people type inside a code ("123 456" → "123456"). */
export function codeDigits(input: string): string {
  return input.replace(/ /g, '');
}

const CODE_SHAPE = new RegExp(`^[0-9]{${TOTP_DIGITS}}$`);

/** Whether the input is exactly 6 ASCII digits once its spaces are removed. */
export function isCodeShaped(input: string): boolean {
  return CODE_SHAPE.test(codeDigits(input));
}

/**
 * A password reset of the merchant panel (issue 27): a link that works once, for an hour, mailed to the
 * person (or printed by the operator's `panel reset`). Only the token's hash is stored; the link carries
 * the token. The new password also asks a code of the person's authenticator: a mailbox alone does not
 * open the panel.
 */
export const RESET_TTL_MS = 60 * 60 * 1000;

/** At most this many reset links are mailed to one e-mail per sign-in window (15 minutes): more are not sent (the answer is the same). */
export const RESETS_PER_EMAIL = 3;

export type PasswordReset = {
  /** SHA-256 of the link's token (base64url): the item's key. */
  tokenHash: string;
  personId: string;
  accountId: string;
  /** Normalized (normalizeEmail). */
  email: string;
  /** The operator (`operator`) or the person (`self`). */
  requestedBy: string;
  createdAt: string;
  expiresAt: string;
};

export function newReset(input: Omit<PasswordReset, 'createdAt' | 'expiresAt'> & { now: Date }): PasswordReset {
  const { now, ...rest } = input;
  return { ...rest, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + RESET_TTL_MS).toISOString() };
}

/** Whether the link still works at `now` (its single use is its item's deletion). */
export function resetUsable(reset: PasswordReset | undefined, now: Date): reset is PasswordReset {
  return reset !== undefined && now.getTime() < Date.parse(reset.expiresAt);
}

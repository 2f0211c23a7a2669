import type { SlotScope } from '../attempt-slots';
import { RESETS_PER_EMAIL } from './reset';

/**
 * The merchant panel's limits (issue 27; under bursts, issue 43): each one a slot log
 * (shared/domain/attempt-slots.ts) that an attempt takes a slot in BEFORE its check, in one conditional
 * write, so N attempts at once admit at most the limit.
 * - Sign-in: wrong passwords and codes per e-mail and per address, over a sliding 15 minutes; past the limit
 *   a sign-in is refused before its password is checked, with the same answer for an unknown e-mail as
 *   for a known one. A right password or code gives its slot back.
 * - Step-up: a signed-in person's codes (and current password) count against that session alone:
 *   strangers' failed sign-ins for the e-mail never lock a working session.
 * - Reset mails per e-mail, and invites per account: every one counts.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Wrong passwords (or codes) an e-mail may take in a window: the 11th attempt is refused. */
export const FAILURES_PER_EMAIL = 10;
/** Failures one address may cause in a window, across e-mails (an office behind one address signs in too). */
export const FAILURES_PER_ADDRESS = 30;
/** Wrong codes (or current passwords) one signed-in session may enter in a window. */
export const STEP_UP_FAILURES_PER_SESSION = 10;
/** Invites one account may send in a day (each mails a stranger: a brake on using the panel to send mail). */
export const INVITES_PER_ACCOUNT_PER_DAY = 20;
export const INVITE_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * A sliding window: an attempt leaves the count 15 minutes after it was made. (Fixed windows, as before
 * issue 43, let twice the limit through around a window's end.)
 */
const SIGN_IN_WINDOW = { kind: 'sliding', ms: SIGN_IN_WINDOW_MS } as const;

/** The logs a sign-in's password or code counts in: its e-mail's and its address's (the address as its limit key: an IPv6 /64). */
export function signInScopes(email: string, address: string): SlotScope[] {
  return [
    { log: { kind: 'signin-email', id: email }, limit: FAILURES_PER_EMAIL, window: SIGN_IN_WINDOW },
    { log: { kind: 'signin-address', id: address }, limit: FAILURES_PER_ADDRESS, window: SIGN_IN_WINDOW },
  ];
}

/** The log a signed-in session's step-up codes and current-password checks count in: the session's own. */
export function stepUpScopes(sessionHash: string): SlotScope[] {
  return [{ log: { kind: 'step-up', id: sessionHash }, limit: STEP_UP_FAILURES_PER_SESSION, window: SIGN_IN_WINDOW }];
}

/** The log of reset links mailed to an e-mail (every one counts, RESETS_PER_EMAIL a window). */
export function resetMailScopes(email: string): SlotScope[] {
  return [{ log: { kind: 'reset-mail', id: email }, limit: RESETS_PER_EMAIL, window: SIGN_IN_WINDOW }];
}

/** The log of invites an account sent (every one counts, over a sliding day). */
export function inviteScopes(accountId: string): SlotScope[] {
  return [{ log: { kind: 'panel-invite', id: accountId }, limit: INVITES_PER_ACCOUNT_PER_DAY, window: { kind: 'sliding', ms: INVITE_WINDOW_MS } }];
}

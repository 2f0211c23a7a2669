/**
 * Sign-in attempts limited per address and per e-mail (issue 27): failures are counted in 15-minute
 * windows; past the limit a sign-in is refused before its password is checked, with the same answer
 * for an unknown e-mail as for a known one.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Wrong passwords (or codes) an e-mail may take in a window: the 11th attempt is refused. */
export const FAILURES_PER_EMAIL = 10;
/** Failures one address may cause in a window, across e-mails (an office behind one address signs in too). */
export const FAILURES_PER_ADDRESS = 30;

export function signInWindow(now: Date): number {
  return Math.floor(now.getTime() / SIGN_IN_WINDOW_MS);
}

/** Whether the counted failures leave room for another attempt. */
export function mayAttempt(failures: { email: number; address: number }): boolean {
  return failures.email < FAILURES_PER_EMAIL && failures.address < FAILURES_PER_ADDRESS;
}

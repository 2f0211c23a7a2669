/**
 * Panel sessions (issue 27): server-side, 30 minutes idle and 12 hours at most; between the password
 * and the authenticator code a sign-in has 5 minutes. Pure: the clock comes in as `now`.
 */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;
/** How long a sign-in waits for its code after the password was right. */
export const CODE_STAGE_MS = 5 * 60 * 1000;
/** A session's last activity is written again only when older than this (fewer writes; idle time stays within a minute of the truth). */
export const TOUCH_AFTER_MS = 60 * 1000;

export type PanelSession = {
  /** SHA-256 of the cookie's session id (base64url): the item's key; the id itself is never stored. */
  sessionHash: string;
  personId: string;
  accountId: string;
  /** The person's e-mail (the person's item is keyed by it). */
  email: string;
  /** `code`: the password was right, the authenticator code is awaited; `active`: signed in. */
  stage: 'code' | 'active';
  createdAt: string;
  lastSeenAt: string;
  /** The address it was opened from (the audit log's and the sessions page's). */
  ip: string;
  userAgent: string;
};

/** When the session ends if nothing happens: the idle limit, capped by the absolute one (the code stage: its own 5 minutes). */
export function sessionEndsAt(session: PanelSession): Date {
  const created = Date.parse(session.createdAt);
  if (session.stage === 'code') return new Date(created + CODE_STAGE_MS);
  return new Date(Math.min(created + SESSION_MAX_MS, Date.parse(session.lastSeenAt) + SESSION_IDLE_MS));
}

export function sessionLive(session: PanelSession | undefined, now: Date): session is PanelSession {
  return session !== undefined && now.getTime() < sessionEndsAt(session).getTime();
}

/** Whether this request should write the session's activity again. */
export function needsTouch(session: PanelSession, now: Date): boolean {
  return now.getTime() - Date.parse(session.lastSeenAt) >= TOUCH_AFTER_MS;
}

import { describe, expect, it } from 'vitest';
import {
  CODE_STAGE_MS,
  needsTouch,
  type PanelSession,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  sessionEndsAt,
  sessionLive,
} from '../../../../shared/domain/panel/session';

const t0 = new Date('2026-11-28T12:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe('panel sessions (issue 27)', () => {
  const session = (over: Partial<PanelSession> = {}): PanelSession => ({
    sessionHash: 's',
    personId: 'p',
    accountId: 'acct_1',
    email: 'ana@example.com',
    stage: 'active',
    createdAt: t0.toISOString(),
    lastSeenAt: t0.toISOString(),
    ip: '203.0.113.7',
    userAgent: 'test',
    ...over,
  });

  it('ends after 30 idle minutes', () => {
    expect(sessionLive(session(), at(SESSION_IDLE_MS - 1))).toBe(true);
    expect(sessionLive(session(), at(SESSION_IDLE_MS))).toBe(false);
    expect(SESSION_IDLE_MS).toBe(30 * 60 * 1000);
  });

  it('ends 12 hours after sign-in however active it is', () => {
    const busy = session({ lastSeenAt: at(SESSION_MAX_MS - 60_000).toISOString() });
    expect(sessionEndsAt(busy).toISOString()).toBe(at(SESSION_MAX_MS).toISOString());
    expect(sessionLive(busy, at(SESSION_MAX_MS - 1))).toBe(true);
    expect(sessionLive(busy, at(SESSION_MAX_MS))).toBe(false);
  });

  it('gives the code stage 5 minutes, whatever its activity', () => {
    const waiting = session({ stage: 'code', lastSeenAt: at(4 * 60_000).toISOString() });
    expect(sessionLive(waiting, at(CODE_STAGE_MS - 1))).toBe(true);
    expect(sessionLive(waiting, at(CODE_STAGE_MS))).toBe(false);
    expect(sessionLive(undefined, t0)).toBe(false);
  });

  it('writes activity again only after a minute', () => {
    expect(needsTouch(session(), at(59_999))).toBe(false);
    expect(needsTouch(session(), at(60_000))).toBe(true);
  });
});

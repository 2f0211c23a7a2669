import { describe, expect, it } from 'vitest';
import { expirationSeconds, lastPixDueDate, MAX_EXPIRATION_SECONDS } from '../../../shared/domain/pix-expiration';

const NOW = new Date('2024-05-10T12:00:00.000Z');

describe('expirationSeconds', () => {
  it('lasts until 23:59:59 of the due date in Brazil (UTC−3)', () => {
    // 2024-05-10 ends in Brazil at 2024-05-11T02:59:59.999Z: 14 h 59 min 59.999 s after NOW.
    expect(expirationSeconds('2024-05-10', NOW)).toBe(14 * 3600 + 59 * 60 + 59);
    // 23:00 in Brazil is already the next day in UTC: still one hour left of the Brazilian day.
    expect(expirationSeconds('2024-05-10', new Date('2024-05-11T02:00:00.000Z'))).toBe(3599);
    // A due date a few days ahead: whole days more.
    expect(expirationSeconds('2024-05-13', NOW)).toBe(3 * 86400 + 14 * 3600 + 59 * 60 + 59);
  });

  it('is at least one minute, even for a due date already past', () => {
    expect(expirationSeconds('2024-05-10', new Date('2024-05-11T02:59:30.000Z'))).toBe(60);
    expect(expirationSeconds('2024-05-10', new Date('2024-05-11T03:00:00.000Z'))).toBe(60);
    expect(expirationSeconds('2024-05-01', NOW)).toBe(60);
    expect(expirationSeconds('2024-05-10', new Date('2024-05-11T02:58:00.000Z'))).toBe(119);
  });
});

describe("the last due date API Pix's int32 expiracao carries", () => {
  it('is the latest day whose end is at most 2,147,483,647 s away; the next day is past it', () => {
    expect(MAX_EXPIRATION_SECONDS).toBe(2 ** 31 - 1);
    for (const now of [NOW, new Date('2026-11-28T12:00:00.000Z'), new Date('2026-12-31T23:59:59.999Z'), new Date('2027-03-01T02:59:59.000Z')]) {
      const last = lastPixDueDate(now);
      expect(expirationSeconds(last, now), now.toISOString()).toBeLessThanOrEqual(MAX_EXPIRATION_SECONDS);
      const next = new Date(Date.parse(`${last}T12:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
      expect(expirationSeconds(next, now), now.toISOString()).toBeGreaterThan(MAX_EXPIRATION_SECONDS);
    }
    // About 68 years: a charge created today cannot be due in 2099 (the standard would need 2,306,917,637 s).
    expect(lastPixDueDate(new Date('2026-11-28T12:00:00.000Z')) < '2099-01-01').toBe(true);
  });
});

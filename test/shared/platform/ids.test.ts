import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newNumericId, sortableNumericId } from '../../../shared/platform/ids';

const MAX_SAFE = 2 ** 53 - 1;

function ids(at: Date, count: number): number[] {
  return Array.from({ length: count }, () => newNumericId(at));
}

describe('newNumericId', () => {
  it('is a positive safe integer', () => {
    for (const id of ids(new Date('2026-06-15T12:00:00Z'), 200)) {
      expect(Number.isSafeInteger(id)).toBe(true);
      expect(id).toBeGreaterThan(0);
    }
  });

  it('orders ids by time: every id of a date 1 ms later is greater', () => {
    const earlier = new Date('2027-02-03T04:05:06.007Z');
    const later = new Date(earlier.getTime() + 1);
    const before = ids(earlier, 500);
    const after = ids(later, 500);
    expect(Math.min(...after)).toBeGreaterThan(Math.max(...before));
  });

  it('orders ids over random pairs of instants 1 ms apart', () => {
    const start = Date.UTC(2026, 0, 1, 0, 0, 1);
    const end = Date.UTC(2090, 0, 1);
    fc.assert(
      fc.property(fc.integer({ min: start, max: end }), (ms) => {
        expect(newNumericId(new Date(ms + 1))).toBeGreaterThan(newNumericId(new Date(ms)));
      }),
    );
  });

  it('never repeats within one process in the same millisecond (up to 4,096 ids), and starts each millisecond at random', () => {
    const at = new Date('2026-06-15T12:00:00Z');
    expect(new Set(ids(at, 4096)).size).toBe(4096);
    const firsts = new Set(Array.from({ length: 50 }, (_, i) => newNumericId(new Date(at.getTime() + 1 + i)) % 4096));
    expect(firsts.size).toBeGreaterThan(1);
  });

  it('stays below 2^53 for a date in 2090', () => {
    for (const id of ids(new Date('2090-12-31T23:59:59.999Z'), 200)) {
      expect(id).toBeLessThanOrEqual(MAX_SAFE);
      expect(Number.isSafeInteger(id)).toBe(true);
    }
  });

  it('throws rather than give an unsafe id past the range (2100) or a non-positive one (2025)', () => {
    expect(() => newNumericId(new Date('2100-01-01T00:00:00Z'))).toThrow();
    expect(() => newNumericId(new Date('2025-12-31T23:59:59Z'))).toThrow();
  });

  it('fits 16 digits, so the sortable form never grows', () => {
    for (const id of ids(new Date('2090-12-31T23:59:59.999Z'), 50)) expect(String(id).length).toBeLessThanOrEqual(16);
  });
});

describe('sortableNumericId', () => {
  it('pads to 16 digits', () => {
    expect(sortableNumericId(1)).toBe('0000000000000001');
    expect(sortableNumericId(123_456_789)).toBe('0000000123456789');
    expect(sortableNumericId(MAX_SAFE)).toBe('9007199254740991');
  });

  it('keeps a 16-character string of digits that reads back as the id', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_SAFE }), (id) => {
        const text = sortableNumericId(id);
        expect(text).toMatch(/^\d{16}$/);
        expect(Number(text)).toBe(id);
      }),
    );
  });

  it('sorts as strings in numeric order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_SAFE }), fc.integer({ min: 1, max: MAX_SAFE }), (a, b) => {
        const byString = Math.sign(sortableNumericId(a).localeCompare(sortableNumericId(b), 'en'));
        const byOrdinal = sortableNumericId(a) < sortableNumericId(b) ? -1 : sortableNumericId(a) > sortableNumericId(b) ? 1 : 0;
        expect(byOrdinal).toBe(Math.sign(a - b));
        expect(byString).toBe(Math.sign(a - b));
      }),
    );
  });

  it('sorts a list of ids the same way as strings and as numbers', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: MAX_SAFE }), { maxLength: 30 }), (list) => {
        const asStrings = list.map(sortableNumericId).sort();
        const asNumbers = [...list].sort((x, y) => x - y).map(sortableNumericId);
        expect(asStrings).toEqual(asNumbers);
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logOfStored, storedCutoff, storedLogTime } from '../../../../shared/adapters/dynamo/rate-counter';

const EPOCH = Date.UTC(2026, 0, 1);
const instants = fc.integer({ min: EPOCH + 1, max: Date.UTC(2056, 0, 1) });

describe('how a sliding log stores its times (tenths of a second since 2026, rounded up)', () => {
  it('stores nine digits where epoch milliseconds take thirteen, and reads them back at most 0.1 s late', () => {
    const now = Date.UTC(2026, 10, 28, 16, 45, 12, 345);
    expect(storedLogTime(now)).toBe(Math.ceil((now - EPOCH) / 100));
    expect(String(storedLogTime(now))).toHaveLength(9);
    fc.assert(
      fc.property(instants, (ms) => {
        const [read] = logOfStored([storedLogTime(ms)]) as number[];
        expect(read).toBeGreaterThanOrEqual(ms);
        expect((read ?? 0) - ms).toBeLessThan(100);
      }),
    );
  });

  it('never admits earlier than the exact rule: an entry is out of the window only if its real time is', () => {
    fc.assert(
      fc.property(instants, fc.integer({ min: -200_000, max: 200_000 }), (entry, offset) => {
        const cutoff = entry + offset;
        if (storedLogTime(entry) <= storedCutoff(cutoff)) expect(entry).toBeLessThanOrEqual(cutoff);
      }),
    );
    // On whole tenths the rule is exact: an entry exactly at the cutoff is out, one a millisecond later is not.
    const at = Date.UTC(2026, 10, 28, 12, 0, 0, 100);
    expect(storedLogTime(at) <= storedCutoff(at)).toBe(true);
    expect(storedLogTime(at + 1) <= storedCutoff(at)).toBe(false);
  });

  it('keeps free slots as 0, and reads entries written before (epoch milliseconds) as they are', () => {
    expect(storedLogTime(EPOCH)).toBe(1);
    const legacy = Date.UTC(2026, 10, 28, 12, 0, 0, 123);
    expect(logOfStored([0, legacy, storedLogTime(legacy + 5_000)])).toEqual([0, legacy, legacy + 5_000 + 77]);
    expect(logOfStored(undefined)).toBeUndefined();
    expect(logOfStored(['x', 0])).toEqual(['x', 0]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { secondsUntilNextWindow, WINDOW_SECONDS, windowOf } from '../../../shared/domain/rate-limit-window';

describe('windowOf', () => {
  it('numbers one-minute windows from the epoch', () => {
    expect(WINDOW_SECONDS).toBe(60);
    expect(windowOf(0)).toBe(0);
    expect(windowOf(59)).toBe(0);
    expect(windowOf(59.999)).toBe(0);
    expect(windowOf(60)).toBe(1);
    expect(windowOf(119)).toBe(1);
    expect(windowOf(1_791_979_200)).toBe(1_791_979_200 / 60);
  });

  it('honours another window length', () => {
    expect(windowOf(9, 10)).toBe(0);
    expect(windowOf(10, 10)).toBe(1);
  });

  it('puts two instants in the same window exactly when they share the minute', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000 }), fc.integer({ min: 0, max: 4_000_000_000 }), (a, b) => {
        const sameMinute = a - (a % 60) === b - (b % 60);
        expect(windowOf(a) === windowOf(b)).toBe(sameMinute);
      }),
    );
  });
});

describe('secondsUntilNextWindow', () => {
  it('is 60 at the exact start of a window', () => {
    expect(secondsUntilNextWindow(0)).toBe(60);
    expect(secondsUntilNextWindow(120)).toBe(60);
    expect(secondsUntilNextWindow(1_791_979_200)).toBe(60);
  });

  it('is 1 one second before the end of a window, never 0', () => {
    expect(secondsUntilNextWindow(59)).toBe(1);
    expect(secondsUntilNextWindow(1_791_979_259)).toBe(1);
    expect(secondsUntilNextWindow(59.5)).toBe(1);
    expect(secondsUntilNextWindow(59.999)).toBe(1);
  });

  it('counts whole seconds, rounding a fraction up', () => {
    expect(secondsUntilNextWindow(61)).toBe(59);
    expect(secondsUntilNextWindow(60.5)).toBe(60);
    expect(secondsUntilNextWindow(90)).toBe(30);
  });

  it('honours another window length', () => {
    expect(secondsUntilNextWindow(10, 10)).toBe(10);
    expect(secondsUntilNextWindow(19, 10)).toBe(1);
  });

  it('is the ceiling of the time left in the minute, between 1 and 60', () => {
    // Half-second steps keep the arithmetic exact in binary floating point.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8_000_000_000 }), (halfSeconds) => {
        const now = halfSeconds / 2;
        const left = 60 - (now % 60);
        const got = secondsUntilNextWindow(now);
        expect(got).toBe(Math.ceil(left));
        expect(got).toBeGreaterThanOrEqual(1);
        expect(got).toBeLessThanOrEqual(60);
        expect(Number.isInteger(got)).toBe(true);
      }),
    );
  });
});

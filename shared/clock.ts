/** The clock port: production uses the system clock; tests pass a fixed one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(at: Date | string | number): Clock {
  const value = new Date(at);
  return { now: () => new Date(value) };
}

export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

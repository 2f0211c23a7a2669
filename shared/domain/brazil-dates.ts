/** Brazil's civil time is UTC−3 all year (no daylight saving since 2019). */
const BRAZIL_OFFSET = '-03:00';

/** Brazil's civil date (YYYY-MM-DD) of an instant. */
export function brazilDate(now: Date): string {
  return new Date(now.getTime() - 3 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** The first and last millisecond (Unix ms) of a Brazil civil date. */
export function brazilDayBounds(date: string): { startMs: number; endMs: number } {
  return { startMs: Date.parse(`${date}T00:00:00.000${BRAZIL_OFFSET}`), endMs: Date.parse(`${date}T23:59:59.999${BRAZIL_OFFSET}`) };
}

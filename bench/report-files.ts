/**
 * bench/reports/latest.{md,json} hold two sections, the round trips and the cold start, which can run
 * apart (`--only=`): a run replaces its own section and keeps the other's from the last run that made
 * it (each section carries its own date). In the markdown the cold-start section sits between markers.
 */
export const COLD_START_BEGIN = '<!-- bench:cold-start -->';
export const COLD_START_END = '<!-- /bench:cold-start -->';

export type MarkdownParts = { roundTrips: string; coldStart: string };

/** Splits a report into the round-trip part (everything outside the markers) and the cold-start section (markers included). */
export function splitMarkdown(text: string): MarkdownParts {
  const begin = text.indexOf(COLD_START_BEGIN);
  const end = text.indexOf(COLD_START_END, begin);
  if (begin < 0 || end < 0) return { roundTrips: text.trimEnd(), coldStart: '' };
  const after = end + COLD_START_END.length;
  const outside = [text.slice(0, begin).trimEnd(), text.slice(after).trim()].filter((part) => part.length > 0);
  return { roundTrips: outside.join('\n\n'), coldStart: text.slice(begin, after) };
}

/** The report with this run's sections, and the previous report's for the sections that did not run. */
export function mergeMarkdown(previous: string | undefined, next: { roundTrips?: string; coldStart?: string }): string {
  const old = splitMarkdown(previous ?? '');
  const roundTrips = (next.roundTrips ?? old.roundTrips).trimEnd();
  const coldStart = next.coldStart === undefined ? old.coldStart : `${COLD_START_BEGIN}\n${next.coldStart.trimEnd()}\n\n${COLD_START_END}`;
  return `${[roundTrips, coldStart].filter((part) => part.length > 0).join('\n\n')}\n`;
}

type Json = Record<string, unknown>;

/** Likewise for the JSON: the round-trip report's fields at the top, the cold start under `coldStart`. */
export function mergeJson(previous: Json | undefined, next: { roundTrips?: Json; coldStart?: Json }): Json {
  const { coldStart: oldColdStart, ...oldRoundTrips } = previous ?? {};
  const coldStart = next.coldStart ?? oldColdStart;
  return { ...(next.roundTrips ?? oldRoundTrips), ...(coldStart === undefined ? {} : { coldStart }) };
}

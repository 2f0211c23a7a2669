/**
 * bench/reports/latest.{md,json} hold three sections, the round trips, the cold start and the
 * contention, which can run apart (`--only=`): a run replaces its own sections and keeps the others
 * from the last run that made them (each section carries its own date). In the markdown the cold-start
 * and contention sections sit between markers, after the round trips.
 */
export const COLD_START_BEGIN = '<!-- bench:cold-start -->';
export const COLD_START_END = '<!-- /bench:cold-start -->';
export const CONTENTION_BEGIN = '<!-- bench:contention -->';
export const CONTENTION_END = '<!-- /bench:contention -->';

/** The sections kept between markers, in the order they are written. */
const MARKED = [
  { part: 'coldStart', begin: COLD_START_BEGIN, end: COLD_START_END },
  { part: 'contention', begin: CONTENTION_BEGIN, end: CONTENTION_END },
] as const;

type MarkedPart = (typeof MARKED)[number]['part'];

export type MarkdownParts = { roundTrips: string } & Record<MarkedPart, string>;

/** Splits a report into the round-trip part (everything outside the markers) and each marked section (markers included, '' when absent). */
export function splitMarkdown(text: string): MarkdownParts {
  let rest = text;
  const parts: Record<MarkedPart, string> = { coldStart: '', contention: '' };
  for (const { part, begin, end } of MARKED) {
    const from = rest.indexOf(begin);
    const to = from < 0 ? -1 : rest.indexOf(end, from);
    if (from < 0 || to < 0) continue;
    const after = to + end.length;
    parts[part] = rest.slice(from, after);
    rest = [rest.slice(0, from).trimEnd(), rest.slice(after).trim()].filter((piece) => piece.length > 0).join('\n\n');
  }
  return { roundTrips: rest.trimEnd(), ...parts };
}

/** The report with this run's sections, and the previous report's for the sections that did not run. */
export function mergeMarkdown(previous: string | undefined, next: { roundTrips?: string } & Partial<Record<MarkedPart, string>>): string {
  const old = splitMarkdown(previous ?? '');
  const roundTrips = (next.roundTrips ?? old.roundTrips).trimEnd();
  const marked = MARKED.map(({ part, begin, end }) => {
    const fresh = next[part];
    return fresh === undefined ? old[part] : `${begin}\n${fresh.trimEnd()}\n\n${end}`;
  });
  return `${[roundTrips, ...marked].filter((part) => part.length > 0).join('\n\n')}\n`;
}

type Json = Record<string, unknown>;

/** Likewise for the JSON: the round-trip report's fields at the top, the cold start under `coldStart`, the contention under `contention`. */
export function mergeJson(previous: Json | undefined, next: { roundTrips?: Json; coldStart?: Json; contention?: Json }): Json {
  const { coldStart: oldColdStart, contention: oldContention, ...oldRoundTrips } = previous ?? {};
  const coldStart = next.coldStart ?? oldColdStart;
  const contention = next.contention ?? oldContention;
  return {
    ...(next.roundTrips ?? oldRoundTrips),
    ...(coldStart === undefined ? {} : { coldStart }),
    ...(contention === undefined ? {} : { contention }),
  };
}

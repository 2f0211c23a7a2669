/** An instant as people in Brazil read it: Brasília time (UTC−3, no daylight saving since 2019), to the minute. */
export function brazilTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(Date.parse(iso) - 3 * 3_600_000);
  if (Number.isNaN(at.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(at.getUTCDate())}/${pad(at.getUTCMonth() + 1)}/${at.getUTCFullYear()} ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}`;
}

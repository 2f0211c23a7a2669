/** Log lines among a process's output: JSON objects with `level` and `message` (Powertools Logger's shape). */

/** The complete JSON log lines of a chunk of output; an unfinished line is carried to the next chunk. */
export function logLinesOf(carried: string, chunk: string): { lines: string[]; rest: string } {
  const parts = (carried + chunk).split('\n');
  const rest = parts.pop() ?? '';
  const lines = parts.filter((line) => {
    if (!line.startsWith('{')) return false;
    try {
      const parsed: unknown = JSON.parse(line);
      return typeof parsed === 'object' && parsed !== null && 'level' in parsed && 'message' in parsed;
    } catch {
      return false;
    }
  });
  return { lines, rest };
}

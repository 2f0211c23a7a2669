import { logLinesOf } from './log-lines';

export type LogCapture = { lines: () => string[]; stop: () => void };

/**
 * Collects the JSON log lines this process writes to stdout and stderr (Powertools Logger's output
 * of handlers called in-process) from now until `stop`. The output still reaches the terminal.
 */
export function captureLogLines(): LogCapture {
  const captured: string[] = [];
  const restores = [process.stdout, process.stderr].map((stream) => {
    const original = stream.write;
    let carried = '';
    stream.write = function (this: NodeJS.WriteStream, ...args: unknown[]) {
      const [chunk] = args;
      const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : '';
      const { lines, rest } = logLinesOf(carried, text);
      carried = rest;
      captured.push(...lines);
      return (original as (...a: unknown[]) => boolean).apply(this, args);
    } as typeof stream.write;
    return () => {
      stream.write = original;
    };
  });
  return { lines: () => [...captured], stop: () => restores.forEach((restore) => restore()) };
}

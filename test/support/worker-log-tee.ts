/**
 * Vitest setup file (vitest.config.ts `setupFiles`): handlers called in-process by the tests log
 * through Powertools Logger (shared/platform/logger.ts) to this worker's stdout and stderr. This copies every
 * JSON log line (an object with `level` and `message`) to `<dir>/worker-logs-<pid>.jsonl`, so the
 * global teardown can scan the logs of the whole run for secrets (test/support/global-setup.ts).
 * The writes still reach the terminal as before.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { logLinesOf } from './log-lines';

const INSTALLED = Symbol.for('payment-gateway.test.worker-log-tee');

function tee(stream: NodeJS.WriteStream, file: string): void {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  let carried = '';
  stream.write = ((...args: unknown[]) => {
    const [chunk] = args;
    try {
      const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : '';
      const { lines, rest } = logLinesOf(carried, text);
      carried = rest.length > 1_000_000 ? '' : rest;
      if (lines.length > 0) appendFileSync(file, `${lines.join('\n')}\n`);
    } catch {
      // Copying must never break the test's own output.
    }
    return write(...args);
  }) as typeof stream.write;
}

const holder = globalThis as typeof globalThis & { [INSTALLED]?: true };
const { workerLogDir } = inject('leakScan');
if (!holder[INSTALLED] && workerLogDir) {
  holder[INSTALLED] = true;
  mkdirSync(workerLogDir, { recursive: true });
  const file = join(workerLogDir, `worker-logs-${process.pid}.jsonl`);
  tee(process.stdout, file);
  tee(process.stderr, file);
}

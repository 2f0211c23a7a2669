/**
 * One cold import: a fresh Node 22 process imports the bundle and times `await import()` itself with
 * performance.now(), so the process's own start-up is left out, as Lambda's INIT phase leaves out the
 * runtime's. The child gets a Lambda-like environment of its own (nothing of this process's, so no
 * NODE_OPTIONS, compile cache or loader leaks in) and must find an exported `handler` function.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const MARKER = 'COLD_START_RESULT ';

/** Runs inside the child (an ES module given with -e); argv[1] is the bundle's file URL. */
const CHILD_SCRIPT = [
  'const started = performance.now();',
  'const loaded = await import(process.argv[1]);',
  'const ms = performance.now() - started;',
  `process.stdout.write(${JSON.stringify(MARKER)} + JSON.stringify({ ms, handler: typeof loaded.handler }) + '\\n');`,
  // A module may leave a timer or a socket open: the measurement is taken, the process ends here.
  'process.exit(0);',
].join('\n');

export function nodeBinary(root: string): string {
  return join(root, 'node_modules', 'node', 'bin', 'node');
}

/** What Lambda would give the function (no credentials: nothing is called at import), and the source-map flag when asked. */
export function childEnvironment(functionId: string, sourceMaps: boolean): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_LAMBDA_FUNCTION_NAME: `bench-${functionId}`,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    POWERTOOLS_SERVICE_NAME: 'payment-gateway',
    POWERTOOLS_LOG_LEVEL: 'INFO',
    TABLE_NAME: 'bench-cold-start',
  };
  if (sourceMaps) env.NODE_OPTIONS = '--enable-source-maps';
  return env;
}

/** Parses the child's answer: the last marked line of its stdout. */
export function parseChildOutput(stdout: string): { ms: number; handler: string } {
  const line = stdout
    .split('\n')
    .filter((l) => l.startsWith(MARKER))
    .pop();
  if (!line) throw new Error('the child printed no result');
  const parsed = JSON.parse(line.slice(MARKER.length)) as { ms?: unknown; handler?: unknown };
  if (typeof parsed.ms !== 'number' || !Number.isFinite(parsed.ms) || typeof parsed.handler !== 'string') throw new Error(`malformed result: ${line}`);
  return { ms: parsed.ms, handler: parsed.handler };
}

/** Imports the bundle once in a fresh process; milliseconds of the import. Rejects when the import fails or exports no handler. */
export function importOnce(node: string, file: string, functionId: string, sourceMaps: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      node,
      ['--input-type=module', '-e', CHILD_SCRIPT, pathToFileURL(file).href],
      { env: childEnvironment(functionId, sourceMaps), timeout: 30_000, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${functionId}: the import failed: ${(stderr || error.message).trim().split('\n').slice(0, 5).join(' | ')}`));
        try {
          const result = parseChildOutput(stdout);
          if (result.handler !== 'function') return reject(new Error(`${functionId}: the bundle exports no handler function (${result.handler})`));
          resolve(result.ms);
        } catch (err) {
          reject(new Error(`${functionId}: ${err instanceof Error ? err.message : String(err)}`));
        }
      },
    );
  });
}

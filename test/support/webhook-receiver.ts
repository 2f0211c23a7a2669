import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { inject } from 'vitest';

export type Received = { headers: Record<string, string | string[] | undefined>; body: string; at: number };

/** What the receiver answers to the n-th request (0-based): a status, a redirect, or silence. */
export type Behaviour = (n: number) => { status: number; location?: string } | 'hang';

export type Receiver = { url: string; received: Received[]; close: () => Promise<void> };

/** An HTTPS receiver on <ip>:8443 with the tests' certificate (trusted by the local stack). */
export async function startReceiver(ip: string, behaviour: Behaviour = () => ({ status: 200 })): Promise<Receiver> {
  const { certPath, keyPath } = inject('webhookCertificate');
  const received: Received[] = [];
  const hanging = new Set<() => void>();
  const server: Server = createServer({ cert: readFileSync(certPath), key: readFileSync(keyPath) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = received.length;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const answer = behaviour(n);
      if (answer === 'hang') {
        hanging.add(() => res.destroy());
        return;
      }
      res.writeHead(answer.status, answer.location ? { Location: answer.location } : {});
      res.end('ok');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(8443, ip, () => resolve());
  });
  return {
    url: `https://${ip}:8443/hooks`,
    received,
    close: () =>
      new Promise((resolve) => {
        for (const drop of hanging) drop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

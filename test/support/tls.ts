import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';

/** Loopback addresses the webhook receivers of the tests listen on (each on port 8443). */
export const RECEIVER_IPS = Array.from({ length: 17 }, (_, i) => `127.0.0.${i + 2}`);

export type TestCertificate = { certPath: string; keyPath: string };

/**
 * A self-signed certificate for localhost and the receivers' loopback addresses. The local stack
 * trusts it through NODE_EXTRA_CA_CERTS, as a merchant's real certificate would be trusted.
 */
export async function writeTestCertificate(dir: string): Promise<TestCertificate> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, ...RECEIVER_IPS.map((ip) => ({ type: 7 as const, ip }))],
      },
    ],
  });
  mkdirSync(dir, { recursive: true });
  const certPath = join(dir, 'webhook-test-cert.pem');
  const keyPath = join(dir, 'webhook-test-key.pem');
  writeFileSync(certPath, pems.cert);
  writeFileSync(keyPath, pems.private, { mode: 0o600 });
  return { certPath, keyPath };
}

import { generate } from 'selfsigned';

/**
 * The certificates of a mutual-TLS API Pix test PSP, all PEM: a CA, the PSP's server certificate and a
 * client certificate signed by it, and a "stranger" client certificate signed by another CA (which the
 * PSP must refuse at the handshake). EC P-256 keys: far faster to make than RSA.
 */
export type ApiPixCertificates = {
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  strangerCert: string;
  strangerKey: string;
};

type Pem = { cert: string; key: string };

/** A little in the past, so that a clock a second behind the signer's still accepts the certificates. */
const BACKDATE_MS = 5 * 60_000;
const VALIDITY_MS = 2 * 24 * 3600_000;

function validity(): { notBeforeDate: Date; notAfterDate: Date } {
  const now = Date.now();
  return { notBeforeDate: new Date(now - BACKDATE_MS), notAfterDate: new Date(now + VALIDITY_MS) };
}

async function certificateAuthority(commonName: string): Promise<Pem> {
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    ...validity(),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

async function leaf(commonName: string, issuer: Pem, usage: 'server' | 'client'): Promise<Pem> {
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    ...validity(),
    ca: { cert: issuer.cert, key: issuer.key },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyAgreement: true, critical: true },
      usage === 'server' ? { name: 'extKeyUsage', serverAuth: true } : { name: 'extKeyUsage', clientAuth: true },
      ...(usage === 'server'
        ? [
            {
              name: 'subjectAltName' as const,
              altNames: [
                { type: 7 as const, ip: '127.0.0.1' },
                { type: 2 as const, value: 'localhost' },
              ],
            },
          ]
        : []),
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** A fresh set of certificates (about a tenth of a second). */
export async function generateApiPixCertificates(): Promise<ApiPixCertificates> {
  const [ca, strangerCa] = await Promise.all([certificateAuthority('API Pix Test PSP CA'), certificateAuthority('Stranger Test CA')]);
  const [server, client, stranger] = await Promise.all([
    leaf('localhost', ca, 'server'),
    leaf('apipix-test-client', ca, 'client'),
    leaf('apipix-stranger-client', strangerCa, 'client'),
  ]);
  return {
    ca: ca.cert,
    serverCert: server.cert,
    serverKey: server.key,
    clientCert: client.cert,
    clientKey: client.key,
    strangerCert: stranger.cert,
    strangerKey: stranger.key,
  };
}

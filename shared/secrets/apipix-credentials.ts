import * as z from 'zod';
import { type SecretSource, secretsManagerSource } from './master-key';

/**
 * What the API Pix adapter needs from Secrets Manager (APIPIX_SECRET_ID), as JSON:
 * `{"client_secret": "…", "certificate": "-----BEGIN CERTIFICATE-----…", "private_key": "-----BEGIN … KEY-----…", "ca": "…"}`.
 * `ca` (optional) is the PSP's certificate authority, when its API is not signed by a public one.
 * Never logged, never stored in the table.
 */
const apiPixSecretSchema = z.object({
  client_secret: z.string().min(1),
  certificate: z.string().includes('BEGIN CERTIFICATE'),
  private_key: z.string().includes('PRIVATE KEY'),
  ca: z.string().includes('BEGIN CERTIFICATE').optional(),
});

export type ApiPixCredentials = { clientSecret: string; certificate: string; privateKey: string; ca: string | undefined };

/** Parses the secret's text; a malformed secret names the fields at fault, never their values. */
export function parseApiPixCredentials(text: string): ApiPixCredentials {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('The API Pix secret is not JSON');
  }
  const parsed = apiPixSecretSchema.safeParse(json);
  if (!parsed.success) throw new Error(`The API Pix secret is missing or has malformed fields: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`);
  const c = parsed.data;
  return { clientSecret: c.client_secret, certificate: c.certificate, privateKey: c.private_key, ca: c.ca };
}

/** The credentials, fetched once per container (a failed fetch is tried again on the next call). */
export function apiPixCredentialsSource(secretId: string, source: SecretSource = secretsManagerSource()): () => Promise<ApiPixCredentials> {
  let cached: Promise<ApiPixCredentials> | undefined;
  return () => {
    if (!cached) {
      cached = source.getSecretString(secretId).then(parseApiPixCredentials);
      cached.catch(() => {
        cached = undefined;
      });
    }
    return cached;
  };
}

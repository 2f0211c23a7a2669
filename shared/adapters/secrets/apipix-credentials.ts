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

/** How long a container keeps the credentials before reading the secret again (a renewed certificate reaches it within this). */
export const API_PIX_CREDENTIALS_TTL_MS = 5 * 60_000;

/**
 * The credentials, read from Secrets Manager at most once per API_PIX_CREDENTIALS_TTL_MS per container
 * (a failed read is tried again on the next call). The same object is answered while it is kept, so
 * the client rebuilds its TLS agent only when the secret was read again.
 */
export function apiPixCredentialsSource(
  secretId: string,
  source: SecretSource = secretsManagerSource(),
  now: () => number = Date.now,
): () => Promise<ApiPixCredentials> {
  let cached: { value: Promise<ApiPixCredentials>; until: number } | undefined;
  return () => {
    if (!cached || cached.until <= now()) {
      const value = source.getSecretString(secretId).then(parseApiPixCredentials);
      const entry = { value, until: now() + API_PIX_CREDENTIALS_TTL_MS };
      cached = entry;
      value.catch(() => {
        if (cached === entry) cached = undefined;
      });
    }
    return cached.value;
  };
}

import * as z from 'zod';
import { type SecretSource, secretsManagerSource } from './master-key';

const credentialsSchema = z.record(z.string(), z.string().min(32));

let cached: Promise<z.output<typeof credentialsSchema>> | undefined;

/**
 * The credential a provider signs its notifications with, from the Secrets Manager secret
 * `{"<provider>": "<notification secret>"}`; fetched once per container.
 */
export async function providerNotificationSecret(
  secretId: string | undefined,
  provider: string,
  source: SecretSource = secretsManagerSource(),
): Promise<string> {
  if (!secretId) throw new Error('PROVIDER_SECRET_ID is not configured');
  if (!cached) {
    cached = source.getSecretString(secretId).then((text) => credentialsSchema.parse(JSON.parse(text)));
    cached.catch(() => {
      cached = undefined;
    });
  }
  const credential = (await cached)[provider];
  if (!credential) throw new Error(`No notification credential for provider ${provider}`);
  return credential;
}

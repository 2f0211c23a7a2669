import * as z from 'zod';
import { type SecretSource, secretsManagerSource } from './master-key';

const originSecretSchema = z.object({ originVerify: z.string().min(32) });

let cached: Promise<string> | undefined;

/**
 * The value CloudFront adds as `x-origin-verify` to each request it forwards, from the Secrets
 * Manager secret `{"originVerify": "<64 characters>"}` the stack generates; fetched once per
 * container (a failed fetch is not kept, so the next request tries again).
 */
export function edgeOriginSecret(secretId: string, source: SecretSource = secretsManagerSource()): Promise<string> {
  if (!cached) {
    cached = source.getSecretString(secretId).then((text) => originSecretSchema.parse(JSON.parse(text)).originVerify);
    cached.catch(() => {
      cached = undefined;
    });
  }
  return cached;
}

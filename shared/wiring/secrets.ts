import { providerNotificationSecret } from '../adapters/secrets/provider-credentials';
import type { Runtime } from './runtime';

/** The credential a provider signs its notifications with (PROVIDER_SECRET_ID in Secrets Manager), fetched once per container. */
export function providerNotificationCredential(runtime: Runtime, provider: string): Promise<string> {
  return providerNotificationSecret(runtime.config.payments.credentialsSecretId, provider);
}

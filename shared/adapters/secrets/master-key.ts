import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod';
import { deriveKey } from '../../domain/auth/token';

/** The secrets port: where the service's master key material comes from. */
export interface SecretSource {
  getSecretString(secretId: string): Promise<string>;
}

export function secretsManagerSource(client: SecretsManagerClient = new SecretsManagerClient({})): SecretSource {
  return {
    async getSecretString(secretId) {
      const out = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
      if (!out.SecretString) throw new Error('The master key secret has no string value');
      return out.SecretString;
    },
  };
}

const masterSecretSchema = z.object({ masterKey: z.string().min(32) });

/**
 * One key per purpose, derived from the master key: token signatures, personal-data encryption, boleto
 * page links, idempotency fingerprints, stored idempotent answers, webhook secrets (AES-256-GCM) and
 * merchants' checkout form signing secrets (shared/domain/checkout-signing.ts; never stored).
 */
export type ServiceKeys = {
  tokenSigning: Buffer;
  personalData: Buffer;
  boletoLinks: Buffer;
  idempotency: Buffer;
  idempotentAnswers: Buffer;
  webhookSecrets: Buffer;
  checkoutSigning: Buffer;
  /** The path tokens of the URLs registered with API Pix PSPs for their callbacks (shared/adapters/providers/apipix/callback-url.ts). */
  providerCallbacks: Buffer;
  /** The merchant panel's: its forms' CSRF tokens and the people's authenticator secrets (AES-256-GCM). */
  panel: Buffer;
  /** The panel's queued mail: a message's recipient and text sealed until it is sent (they may hold a link that works once). */
  mail: Buffer;
};

/** Parses the secret's JSON and derives one key per purpose. */
export function deriveServiceKeys(secretString: string): ServiceKeys {
  const parsed = masterSecretSchema.safeParse(JSON.parse(secretString));
  if (!parsed.success) throw new Error('The master key secret must be JSON with a masterKey of at least 32 characters');
  return {
    tokenSigning: deriveKey(parsed.data.masterKey, 'token-signing/v1'),
    personalData: deriveKey(parsed.data.masterKey, 'personal-data/v1'),
    boletoLinks: deriveKey(parsed.data.masterKey, 'boleto-links/v1'),
    idempotency: deriveKey(parsed.data.masterKey, 'idempotency-fingerprint/v1'),
    idempotentAnswers: deriveKey(parsed.data.masterKey, 'idempotent-answers/v1'),
    webhookSecrets: deriveKey(parsed.data.masterKey, 'webhook-secrets/v1'),
    checkoutSigning: deriveKey(parsed.data.masterKey, 'checkout-signing/v1'),
    providerCallbacks: deriveKey(parsed.data.masterKey, 'provider-callbacks/v1'),
    panel: deriveKey(parsed.data.masterKey, 'panel/v1'),
    mail: deriveKey(parsed.data.masterKey, 'mail/v1'),
  };
}

let cached: Promise<ServiceKeys> | undefined;

/** Fetched once per container; a failed fetch is not cached, so the next call tries again. */
export function getServiceKeys(secretId: string, source: SecretSource = secretsManagerSource()): Promise<ServiceKeys> {
  if (!cached) {
    cached = source.getSecretString(secretId).then(deriveServiceKeys);
    cached.catch(() => {
      cached = undefined;
    });
  }
  return cached;
}

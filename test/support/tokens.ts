import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { signToken } from '../../shared/domain/auth/token';
import { deriveServiceKeys } from '../../shared/adapters/secrets/master-key';
import { stack } from './api';

/** The local stack's token-signing key (HKDF of the master key in its Secrets Manager endpoint). */
export async function tokenSigningKey(): Promise<Buffer> {
  const client = new SecretsManagerClient({
    region: 'us-east-1',
    endpoint: stack().secretsEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const out = await client.send(new GetSecretValueCommand({ SecretId: stack().masterKeySecretId }));
  return deriveServiceKeys(out.SecretString ?? '').tokenSigning;
}

/** A token for the account signed with `key`, valid from `issuedAt` to `expiresAt` (unix seconds). */
export function tokenSignedWith(key: Buffer, accountId: string, keyVersion: number, issuedAt: number, expiresAt: number): string {
  return signToken({ accountId, keyVersion, issuedAt, expiresAt }, key);
}

/** The same token with its payload replaced: the signature no longer matches what it claims. */
export function withPayloadOf(token: string, other: string): string {
  const [, signature = ''] = token.split('.');
  const [payload = ''] = other.split('.');
  return `${payload}.${signature}`;
}

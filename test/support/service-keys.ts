import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { deriveServiceKeys, type ServiceKeys } from '../../shared/adapters/secrets/master-key';
import { stack } from './api';

/** The local stack's service keys (HKDF of the master key its Secrets Manager stand-in holds): what the tests derive secrets with. */
export async function localServiceKeys(): Promise<ServiceKeys> {
  const client = new SecretsManagerClient({
    region: 'us-east-1',
    endpoint: stack().secretsEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const out = await client.send(new GetSecretValueCommand({ SecretId: stack().masterKeySecretId }));
  return deriveServiceKeys(out.SecretString ?? '');
}

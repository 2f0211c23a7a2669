import { dynamoApiKeys } from '../adapters/dynamo/api-keys';
import type { TokenPorts } from '../app/auth/issue-token';
import type { Runtime } from './runtime';

/** What issuing a token needs: the issued keys in the table, the token-signing key, the configured lifetime. */
export function tokenPorts(runtime: Runtime): TokenPorts {
  return {
    keys: dynamoApiKeys(runtime.db, runtime.config.tableName),
    signingKey: async () => (await runtime.serviceKeys()).tokenSigning,
    ttlSeconds: runtime.config.tokenTtlSeconds,
  };
}

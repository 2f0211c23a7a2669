/** An issued public key as stored: its account, the key version it belongs to, and its secret's hash (never the secret). */
export type IssuedKey = { accountId: string; keyVersion: number; secretHash: string };

/** The issued API keys (shared/adapters/dynamo/accounts.ts). */
export interface ApiKeyStore {
  /** The key issued under this public key (strongly consistent), or undefined. */
  byPublicKey(publicKey: string): Promise<IssuedKey | undefined>;
}

import type { AuditEntry } from '../domain/panel/audit';

/** An issued public key as stored: its account, the key version it belongs to, and its secret's hash (never the secret). */
export type IssuedKey = { accountId: string; keyVersion: number; secretHash: string };

/** The issued API keys (shared/adapters/dynamo/accounts.ts). */
/** An account's API keys as its owner sees them: the public key (the secret never leaves its issue). */
export interface AccountKeys {
  publicKey(accountId: string): Promise<string | undefined>;
  /**
   * New keys in one transaction: the key version moves on and the old public key is deleted (the old
   * keys and every token issued under them stop at once, spec 5.6), with `alsoPut` (the audit entry).
   */
  rotate(accountId: string, alsoPut?: AuditEntry): Promise<{ publicKey: string; secretKey: string }>;
}

export interface ApiKeyStore {
  /** The key issued under this public key (strongly consistent), or undefined. */
  byPublicKey(publicKey: string): Promise<IssuedKey | undefined>;
}

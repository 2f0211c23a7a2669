import type { Account } from '../domain/account';
import type { QuotaState } from '../domain/sliding-log';

/** The admission counters and the account's key state (shared/adapters/dynamo/gate.ts). */
export interface GateStore {
  /**
   * Logs a call against the account's limit, in one conditional write that also checks the token's key
   * version and that the account is enabled: a missing account or a rotated key is an
   * UnauthorizedError, a disabled one an AccountDisabledError, past the limit a RateLimitedError.
   * `withAccount`: the account's settings after the update (write routes use them).
   */
  countAccountCall(hit: {
    accountId: string;
    keyVersion: number;
    limit: number;
    nowMs: number;
    withAccount: boolean;
  }): Promise<{ account: Account | undefined; quota: QuotaState }>;
  /** Logs a call against a client IP's limit of a class (past it: RateLimitedError). */
  countIpCall(hit: { limitClass: string; ip: string; limit: number; nowMs: number }): Promise<QuotaState>;
  /** The account's key version and whether it is disabled (strongly consistent); undefined when there is no such account. */
  keyState(accountId: string): Promise<{ keyVersion: number; disabled: boolean } | undefined>;
}

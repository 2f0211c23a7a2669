import type { CardAttempt } from '../domain/card-attempt';
import type { NewInvoice } from '../domain/invoice';

/** The card attempts of POST /api/creditcard/create (shared/adapters/dynamo/card-attempts.ts). */
export interface CardAttemptStore {
  /** The attempt kept under this key (strongly consistent), or undefined. */
  read(key: string): Promise<CardAttempt | undefined>;
  /** The attempt of this charge: the one kept (a retry), or a new OPEN one with a fresh provider key (two first attempts at once share the winner's). */
  open(key: string, fresh: { accountId: string; reference: string; invoiceId: number; provider: string; pending: NewInvoice }, now: Date): Promise<CardAttempt>;
  /** An OPEN attempt whose authorization was voided before gets a new provider key (conditional on its old key and OPEN). */
  renewProviderKey(attempt: CardAttempt, voidedTransaction: string): Promise<CardAttempt>;
  /** An OPEN attempt the provider declined or verifiably never charged: gone, so a retry asks anew. */
  drop(attempt: CardAttempt): Promise<void>;
  /** An UNKNOWN attempt settled: RECORDED (kept for retries until its TTL) or NOT_CHARGED (gone: a retry authorizes anew). */
  closeUnknown(attempt: CardAttempt, status: 'RECORDED' | 'NOT_CHARGED', now: Date): Promise<void>;
  /** The transaction of an approved attempt, recorded on its PENDING invoice (kept when one is there already). */
  recordTransaction(reference: string, transaction: { transactionId: string; status: number }): Promise<void>;
  /** The settler's index partitions of UNKNOWN attempts (and OPEN ones: issue 44). */
  readonly unknownPartitions: readonly string[];
  /** The UNKNOWN attempts of one partition. */
  unknownIn(partition: string): Promise<CardAttempt[]>;
  /** The OPEN attempts of one partition opened before `openedBefore` (their invocations are over: issue 44). */
  staleOpenIn(partition: string, openedBefore: Date): Promise<CardAttempt[]>;
}

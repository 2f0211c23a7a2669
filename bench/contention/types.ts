/** The contention section's shapes (issue 13, "The per-account ceiling"). */

/** One account receiving every notification, or each notification for another of 100 accounts. */
export type ContentionMode = 'one-account' | 'spread';

/** What one notification got: its status, whether it moved the invoice, its wall time. */
export type Outcome = {
  /** Index of the invoice the notification confirms (in the run's list). */
  invoice: number;
  status: number;
  /** The answer's `applied` (true: this notification paid the invoice). */
  applied: boolean;
  ms: number;
  /** The answer's error code when it was not 200 (e.g. `temporary_conflict`), for the report. */
  code?: string;
};

/** Write attempts the storage layer sent during a run, seen on the DynamoDB client (once per HTTP attempt). */
export type WriteAttempts = {
  /** TransactWriteItems attempts. */
  transactions: number;
  /** Attempts that failed only because of concurrency or throttling (retried by retryTransient, or the last before a 503). */
  transient: number;
  /** Of those, by cancellation reason or error name (TransactionConflict, TransactionConflictException, ThrottlingError...). */
  byReason: Record<string, number>;
  /** Attempts that failed otherwise (a failed condition...), by error name. */
  otherFailures: Record<string, number>;
};

/** The exactly-once check of one run. */
export type ExactlyOnce = {
  /** Sum of the totals of the invoices whose notification answered applied: true, in cents. */
  confirmedCents: number;
  /** The balances the accounts' GET /api/balance answered right after the run, summed, in cents. */
  balanceCents: number;
  /** Invoices stored as PAID after the run, and how many notifications answered applied. */
  paidInvoices: number;
  applied: number;
  /** Notifications answered other than 200 and delivered again afterwards (not timed), and how many of those then applied. */
  redelivered: number;
  redeliveredApplied: number;
  /** Duplicates of applied notifications sent afterwards (a fresh notification id, same charge): how many wrongly applied. */
  duplicates: number;
  duplicatesApplied: number;
  /** After the redeliveries: the balances against the sum of every invoice of the run. */
  finalBalanceCents: number;
  allInvoicesCents: number;
  pass: boolean;
  /** Why it failed, if it did. */
  problems: string[];
};

export type RunSummary = {
  mode: ContentionMode;
  /** Concurrent notifications in flight (a pool of this many callers). */
  concurrency: number;
  notifications: number;
  accounts: number;
  /** The most notifications of one account in flight at once (1 for a true spread). */
  maxInFlightPerAccount: number;
  wallMs: number;
  /** Notifications answered 200 applied: true, per second of the run's wall time. */
  confirmationsPerSecond: number;
  /** Answers by status (200, 503...). */
  statuses: Record<string, number>;
  /** 503 answers over notifications. */
  rate503: number;
  writes: WriteAttempts;
  /** Transient write failures over transaction attempts. */
  conflictRate: number;
  latencyMs: { p50: number; p99: number; max: number };
  exactlyOnce: ExactlyOnce;
};

export type ContentionReport = {
  generatedAt: string;
  environment: { node: string; platform: string; cpus: number; dynamodbLocal: string };
  notificationsPerRun: number;
  levels: number[];
  accountsSpread: number;
  /** Sequential notifications sent before measuring (JIT, cached provider credential), not kept. */
  warmup: number;
  /**
   * The provider route's per-IP limit ('public' class) in this run: every notification comes from one
   * provider address and also updates that address's counter item. The bench raises it (default 300 a minute).
   */
  providerIpLimitPerMinute: number;
  runs: RunSummary[];
  /** Whether the storage layer's retries could be counted (on the client) or only the 503 answers. */
  retriesCounted: 'client-attempts';
  /** Every run's exactly-once check passed and no answer was other than 200 or 503. */
  pass: boolean;
  loadAverage: { before: number[]; after: number[] };
};

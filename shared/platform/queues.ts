import { type ChangeKind, INVOICE_MOVE_CHANGES } from '../domain/changes';

/**
 * The service's SQS queues, read by the CDK stack and the local stack alike. Each queue has a DLQ;
 * `handler` is the module that consumes it (Lambda event source in AWS, a poller locally).

 */
export type QueueDef = {
  id: string;
  /** Consumer module relative to the project root; exports `handler` (SQS event, batch item failures). */
  handler: string;
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
  /** The environment variable that carries the queue's URL to the functions that send to it. */
  urlEnv: string;
  /** When the consumer itself moves a message to the DLQ (e.g. a retry window spent): the variable with the DLQ's URL. */
  dlqUrlEnv?: string;
  /** The consumer unseals data with keys derived from the master key (webhook secrets, Pix keys). */
  usesMasterKey: boolean;
  /** Messages per invocation and the consumer's timeout (batch × the slowest message must fit). */
  batchSize: number;
  workerTimeoutSeconds: number;
  /**
   * At most this many consumer invocations at once (the SQS event source's MaximumConcurrency, 2 to
   * 1,000): a backlog on this queue cannot take the account's Lambda concurrency from the API.
   */
  maxConcurrency: number;
  /**
   * Lambda's recursive loop detection for the consumer (the function's RecursiveLoop): a consumer that
   * sends to the queue it consumes forms a chain, and with `Terminate` (AWS's default) Lambda stops the
   * chain's 17th invocation and sends its message to the DLQ. A consumer whose retries or hops re-enter
   * its own queue on purpose says `Allow` (and its `RecursiveInvocationsDropped` alarm still watches).
   * The local pollers apply the same rule (infra/local/recursion.ts).
   */
  recursiveLoop: 'Allow' | 'Terminate';
  /**
   * Whether the consumer sends to its own queue (a retry or a hop is a new message with a delay): only
   * then is it granted sqs:SendMessage on it (least privilege, issue 44).
   */
  sendsToOwnQueue: boolean;
  /**
   * Who sends to it: the service's own functions (the stream forwarder, the sweep, a worker), or only
   * Amazon SES's event destination (its SNS topic, issue 44): then no function is granted sqs:SendMessage on it.
   */
  sentBy: 'service' | 'ses';
};

/** How long every queue and DLQ keeps a message: SQS's maximum, so nothing waiting for a fix or a redrive is dropped. */
export const MESSAGE_RETENTION_DAYS = 14;

/** AWS's recommendation: a queue's visibility timeout of at least 6 × its Lambda consumer's timeout. */
export const VISIBILITY_PER_TIMEOUT = 6;

export const queues = {
  /** Withdrawals to ask the bank to pay (fed by the stream forwarder); retried with growing waits, then the DLQ. */
  payouts: {
    id: 'payouts',
    handler: 'functions/workers/payout.ts',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 8,
    urlEnv: 'PAYOUT_QUEUE_URL',
    dlqUrlEnv: 'PAYOUT_DLQ_URL',
    usesMasterKey: true,
    batchSize: 10,
    workerTimeoutSeconds: 30,
    // The bank's API sees at most 5 × 10 requests in flight.
    maxConcurrency: 5,
    // A bank outage is retried for 24 h in hops of at most 15 minutes: about 100 invocations in one chain.
    recursiveLoop: 'Allow',
    sendsToOwnQueue: true,
    sentBy: 'service',
  },
  /**
   * Webhook deliveries (fed by the stream forwarder with outbox events). The sender itself schedules the
   * 8 attempts as delayed messages (hops of at most 15 minutes); the DLQ only receives messages it
   * could not process at all.
   */
  webhooks: {
    id: 'webhooks',
    handler: 'functions/workers/webhook-sender.ts',
    visibilityTimeoutSeconds: 300,
    maxReceiveCount: 12,
    urlEnv: 'WEBHOOK_QUEUE_URL',
    usesMasterKey: true,
    batchSize: 4,
    workerTimeoutSeconds: 50,
    // Slow merchant endpoints hold at most 20 senders.
    maxConcurrency: 20,
    // The 8 attempts span 1,335 minutes in hops of at most 15: about 95 invocations in one chain.
    recursiveLoop: 'Allow',
    sendsToOwnQueue: true,
    sentBy: 'service',
  },
  /**
   * The daily reconciliation's pages (functions/workers/reconcile-page.ts): the scheduled start sends
   * one message per partition of the account index; each reconciles one page and sends the next.
   */
  reconcile: {
    id: 'reconcile',
    handler: 'functions/workers/reconcile-page.ts',
    visibilityTimeoutSeconds: 720,
    maxReceiveCount: 5,
    urlEnv: 'RECONCILE_QUEUE_URL',
    usesMasterKey: false,
    batchSize: 1,
    workerTimeoutSeconds: 120,
    // Reads only, but many: 4 pages at a time leave the table's capacity to the API.
    maxConcurrency: 4,
    // A partition of the account index is a chain of pages (accounts ÷ 16 ÷ the page size of them): past 16 with many accounts.
    recursiveLoop: 'Allow',
    sendsToOwnQueue: true,
    sentBy: 'service',
  },
  /**
   * The merchant panel's mail (fed by the stream forwarder with queued messages): each sent once at a
   * time under a lease (shared/app/mail/send-mail.ts); a provider's refusal is retried by SQS, then the DLQ.
   */
  mail: {
    id: 'mail',
    handler: 'functions/workers/mail-sender.ts',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 6,
    urlEnv: 'MAIL_QUEUE_URL',
    usesMasterKey: true,
    batchSize: 5,
    workerTimeoutSeconds: 30,
    // SES's default sending rate is 1 message a second for a new account: a few senders are plenty.
    maxConcurrency: 2,
    recursiveLoop: 'Terminate',
    // Each message is one mail, sent or failed by SQS's own redelivery: the sender never sends to the queue.
    sendsToOwnQueue: false,
    sentBy: 'service',
  },
  /**
   * SES's bounce and complaint events of the panel's mail (issue 44): the configuration set's event
   * destination is an SNS topic this queue subscribes to. Its consumer suppresses the recipients of a
   * hard bounce or a complaint (shared/app/mail/record-feedback.ts); a failed write is retried by SQS,
   * then the DLQ.
   */
  mailFeedback: {
    id: 'mailFeedback',
    handler: 'functions/workers/mail-feedback.ts',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    urlEnv: 'MAIL_FEEDBACK_QUEUE_URL',
    usesMasterKey: false,
    batchSize: 10,
    workerTimeoutSeconds: 10,
    // A few table writes per event: two at a time keep up with any sending rate SES grants a new account.
    maxConcurrency: 2,
    recursiveLoop: 'Terminate',
    // Only SES (through SNS) sends here: the consumer never does.
    sendsToOwnQueue: false,
    sentBy: 'ses',
  },
} satisfies Record<string, QueueDef>;

export const queueList: readonly QueueDef[] = Object.values(queues);

/** Consumers of the table's stream: each receives the DynamoDB Streams records its filter keeps. */
export type StreamConsumerDef = {
  id: string;
  handler: string;
  /** Keep only INSERTs of items whose `type` attribute is one of these (a Lambda event filter in AWS). */
  insertsOfTypes: readonly string[];
};

/** How the event source mapping reads the stream for a consumer (Lambda in AWS; the local poller mirrors it). */
export type StreamMappingDef = StreamConsumerDef & {
  /** Records per invocation. */
  batchSize: number;
  /**
   * Retries of a failing batch (split in two on each error, to isolate a bad record) before its
   * records are given up on: a failure record (shard, sequence numbers) goes to the failure queue.
   */
  retryAttempts: number;
  /** Records older than this are given up on likewise (stream records expire after 24 h anyway). */
  maxRecordAgeSeconds: number;
};

/** Forwards new withdrawals, outbox events, redelivery requests and queued mail from the table's stream to their queues. */
export const streamForwarder: StreamMappingDef = {
  id: 'StreamForwarder',
  handler: 'functions/workers/stream-forwarder.ts',
  insertsOfTypes: ['withdraw', 'event', 'redelivery', 'mail'],
  batchSize: 100,
  retryAttempts: 10,
  // An hour: the IteratorAge alarm (5 minutes) pages on-call long before anything is given up on.
  maxRecordAgeSeconds: 3600,
};

export const streamConsumerList: readonly StreamMappingDef[] = [streamForwarder];

/** The sweep (functions/workers/sweep.ts): on a schedule, forwards what the stream never forwarded. */
export const sweepWorker = {
  id: 'Sweep',
  handler: 'functions/workers/sweep.ts',
  /** How often it runs in AWS (an EventBridge rule); the local stack runs it every LOCAL_SWEEP_INTERVAL_SECONDS. */
  everyMinutes: 5,
  timeoutSeconds: 60,
} as const;

/** The checkout upkeep (functions/workers/checkout-upkeep.ts): abandons checkouts past CHECKOUT_TTL, settles UNKNOWN ones. */
export const checkoutUpkeepWorker = {
  id: 'CheckoutUpkeep',
  handler: 'functions/workers/checkout-upkeep.ts',
  /**
   * Abandons, claims and reopens card attempts, records a card payment the provider confirms (the sale
   * invoice PAID, its credit, events, the checkout paid), and settles the API's lost card answers as a
   * notification moves an invoice.
   */
  changes: [
    'checkout.abandoned',
    'checkout.card_claimed',
    'checkout.card_reopened',
    // A checkout paid by Pix while a card attempt was in flight: that attempt voided or found uncharged (issue 44).
    'checkout.card_attempt_cleared',
    'invoice.created',
    'checkout.paid',
    // An API card attempt left OPEN by a killed invocation: its PENDING invoice and its move to UNKNOWN (issue 44).
    'card_attempt.unknown',
    ...INVOICE_MOVE_CHANGES,
  ] satisfies ChangeKind[],
  /** How often it runs in AWS (an EventBridge rule); the local stack runs it every LOCAL_CHECKOUT_UPKEEP_INTERVAL_SECONDS. */
  everyMinutes: 5,
  timeoutSeconds: 120,
} as const;

/**
 * The Pix sweep (functions/workers/pix-sweep.ts), deployed only with an API Pix PSP: reads back the
 * PENDING Pix charges older than APIPIX_SWEEP_AFTER_MINUTES whose callback never came.
 */
export const pixSweepWorker = {
  id: 'PixSweep',
  handler: 'functions/workers/pix-sweep.ts',
  /** Applies what the PSP holds as the callbacks do. */
  changes: INVOICE_MOVE_CHANGES,
  /** How often it runs in AWS (an EventBridge rule). */
  everyMinutes: 5,
  timeoutSeconds: 120,
} as const;

/**
 * The daily reconciliation's start (functions/workers/reconcile.ts): sends one message per partition of
 * the account index to the reconcile queue, whose consumer reconciles page after page and publishes
 * LedgerDifferences.
 */
export const reconcileWorker = {
  id: 'Reconcile',
  handler: 'functions/workers/reconcile.ts',
  /** Once a day (an EventBridge rule); locally run by hand (`npm run admin -- account reconcile --all`). */
  everyMinutes: 24 * 60,
  timeoutSeconds: 60,
  /** Accounts per page (RECONCILE_PAGE_SIZE's default): one message's work. */
  pageSize: 100,
  /** The metric it publishes (namespace PaymentGateway): accounts whose balance differs from the sum of their entries; alarmed above 0. */
  metric: 'LedgerDifferences',
} as const;

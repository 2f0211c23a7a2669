import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { mailFeedbackOf } from '../../shared/domain/panel/mail-feedback';

/** The CLI's name of the stream forwarder's failure queue (it has no source queue: `dlq redrive` runs `stream redrive` for it). */
export const STREAM_FAILURES_QUEUE = 'stream-failures';

/** The CLI's name of the mail feedback queue (SES bounces and complaints, through SNS). */
export const MAIL_FEEDBACK_QUEUE = 'mail-feedback';

/** The queues `dlq` works on: the service's queues (shared/platform/queues.ts) and the stream forwarder's failure queue. */
export type QueueUrls = { sqs: SQSClient; payouts: string; webhooks: string; reconcile: string; mail: string; mailFeedback: string; streamFailures: string };

/** One dead-letter queue: its name for the CLI, its URL, and the queue its messages came from (none for stream failures). */
export type Dlq = { queue: string; dlqUrl: string; sourceUrl?: string };

/** Each queue's DLQ is found from the queue's RedrivePolicy (the same locally and in AWS). */
async function dlqOf(sqs: SQSClient, queue: string, sourceUrl: string): Promise<Dlq> {
  if (!sourceUrl) throw new Error(`The ${queue} queue's URL is not known`);
  const attributes = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: sourceUrl, AttributeNames: ['RedrivePolicy'] }))).Attributes ?? {};
  const policy = JSON.parse(attributes.RedrivePolicy ?? '{}') as { deadLetterTargetArn?: unknown };
  const arn = typeof policy.deadLetterTargetArn === 'string' ? policy.deadLetterTargetArn.split(':') : [];
  const name = arn[5];
  if (!name) throw new Error(`The ${queue} queue has no DLQ (no RedrivePolicy)`);
  const owner = arn[4];
  const found = await sqs.send(new GetQueueUrlCommand({ QueueName: name, ...(owner && /^\d{12}$/.test(owner) ? { QueueOwnerAWSAccountId: owner } : {}) }));
  if (!found.QueueUrl) throw new Error(`The ${queue} queue's DLQ ${name} was not found`);
  return { queue, dlqUrl: found.QueueUrl, sourceUrl };
}

/** Every DLQ of the service: one per queue of shared/platform/queues.ts, then the stream forwarder's failure queue. */
export async function serviceDlqs(urls: QueueUrls): Promise<Dlq[]> {
  const queues = await Promise.all([
    dlqOf(urls.sqs, 'payouts', urls.payouts),
    dlqOf(urls.sqs, 'webhooks', urls.webhooks),
    dlqOf(urls.sqs, 'reconcile', urls.reconcile),
    dlqOf(urls.sqs, 'mail', urls.mail),
    dlqOf(urls.sqs, MAIL_FEEDBACK_QUEUE, urls.mailFeedback),
  ]);
  return [...queues, { queue: STREAM_FAILURES_QUEUE, dlqUrl: urls.streamFailures }];
}

/** The DLQ of one queue by its CLI name, or undefined for an unknown name. */
export async function findDlq(urls: QueueUrls, name: string): Promise<Dlq | undefined> {
  if (name === STREAM_FAILURES_QUEUE) return { queue: STREAM_FAILURES_QUEUE, dlqUrl: urls.streamFailures };
  if (name === 'payouts') return dlqOf(urls.sqs, name, urls.payouts);
  if (name === 'webhooks') return dlqOf(urls.sqs, name, urls.webhooks);
  if (name === 'reconcile') return dlqOf(urls.sqs, name, urls.reconcile);
  if (name === 'mail') return dlqOf(urls.sqs, name, urls.mail);
  if (name === MAIL_FEEDBACK_QUEUE) return dlqOf(urls.sqs, name, urls.mailFeedback);
  return undefined;
}

export const QUEUE_NAMES: readonly string[] = ['payouts', 'webhooks', 'reconcile', 'mail', MAIL_FEEDBACK_QUEUE, STREAM_FAILURES_QUEUE];

/** `dlq list`: one line per DLQ with its depth (ApproximateNumberOfMessages: visible messages). */
export async function dlqDepths(urls: QueueUrls): Promise<{ queue: string; dlq_url: string; depth: number }[]> {
  const dlqs = await serviceDlqs(urls);
  return Promise.all(
    dlqs.map(async (dlq) => {
      const out = await urls.sqs.send(new GetQueueAttributesCommand({ QueueUrl: dlq.dlqUrl, AttributeNames: ['ApproximateNumberOfMessages'] }));
      return { queue: dlq.queue, dlq_url: dlq.dlqUrl, depth: Number(out.Attributes?.ApproximateNumberOfMessages ?? 0) };
    }),
  );
}

const REDACTED = '[redacted]';

/** The service's secrets and personal data as they could appear in a string (test/support/leak-scan.ts's kinds). */
const SECRET_PATTERNS: readonly RegExp[] = [
  /SEC-[A-Za-z0-9]{48}/g,
  /pgt_[A-Za-z0-9_-]+/g,
  /whsec_[A-Za-z0-9_-]+/g,
  /cks_[A-Za-z0-9_-]{43}/g,
  /Basic\s+[A-Za-z0-9+/=]+/gi,
  // Card numbers and taxpayer documents: 11 or more digits, punctuated or not.
  /\d(?:[\s./-]?\d){10,}/g,
  // Alphanumeric CNPJ (12 characters and 2 check digits), punctuated or not.
  /\b[0-9A-Z]{2}\.?[0-9A-Z]{3}\.?[0-9A-Z]{3}\/?[0-9A-Z]{4}-?\d{2}\b/g,
];

/** Keys whose value is a secret or personal data whatever it looks like. */
const SECRET_KEY = /secret|token|password|passwd|authorization|signature|key|card|pan$|cvv|cvc|document|cpf|cnpj|taxid/i;

/** Any value with every secret-looking string and every value under a secret-looking key replaced by "[redacted]". */
export function redacted(value: unknown, key = ''): unknown {
  if (key !== '' && SECRET_KEY.test(key) && value !== null && value !== undefined) return REDACTED;
  if (typeof value === 'string') return SECRET_PATTERNS.reduce((text, pattern) => text.replace(pattern, REDACTED), value);
  if (Array.isArray(value)) return value.map((v) => redacted(v));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redacted(v, k)]));
  return value;
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The fields a known message shape carries (none of them secret): webhook attempts, payout references, stream failure records. */
function knownShape(queue: string, body: unknown): Record<string, unknown> | undefined {
  if (!isRecord(body)) return undefined;
  if (queue === 'webhooks' && typeof body.eventId === 'string')
    return {
      eventId: body.eventId,
      ...(body.attempt !== undefined ? { attempt: body.attempt } : {}),
      ...(body.notBefore !== undefined ? { notBefore: body.notBefore } : {}),
    };
  if (queue === 'payouts' && typeof body.reference === 'string') return { reference: body.reference };
  if (queue === MAIL_FEEDBACK_QUEUE) {
    // An SES event (in SNS's envelope): what it says and which queued message it was about, never the recipients' addresses.
    const feedback = mailFeedbackOf(JSON.stringify(body));
    if (!feedback) return undefined;
    if (feedback.kind === 'other') return { event: feedback.eventType };
    const { recipients, ...about } = feedback;
    return { event: feedback.kind, ...about, recipients: recipients.length };
  }
  if (queue === STREAM_FAILURES_QUEUE && isRecord(body.DDBStreamBatchInfo)) {
    // Metadata only (shard, sequence numbers, times): kept as Lambda wrote it, the sequence numbers unredacted.
    const { timestamp, requestContext, responseContext, DDBStreamBatchInfo } = body;
    return { timestamp, requestContext: redacted(requestContext), responseContext: redacted(responseContext), DDBStreamBatchInfo };
  }
  return undefined;
}

/** A message body as `dlq inspect` shows it: a known shape's fields, or anything else redacted. */
export function bodyView(queue: string, raw: string): unknown {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return redacted(raw);
  }
  return knownShape(queue, body) ?? redacted(body);
}

/** A message as `dlq inspect` prints it. */
export type MessageView = { message_id: string; sent_at: string | null; receive_count: number; body: unknown };

export function messageView(queue: string, message: Message): MessageView {
  const sent = Number(message.Attributes?.SentTimestamp);
  return {
    message_id: String(message.MessageId),
    sent_at: Number.isFinite(sent) && sent > 0 ? new Date(sent).toISOString() : null,
    receive_count: Number(message.Attributes?.ApproximateReceiveCount ?? 0),
    body: bodyView(queue, message.Body ?? ''),
  };
}

/** How long `inspect` and `redrive` hold what they receive (inspect gives it back at once when done). */
const HOLD_SECONDS = 30;

async function receive(sqs: SQSClient, url: string, max: number): Promise<Message[]> {
  const out = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: url,
      MaxNumberOfMessages: Math.min(10, max),
      WaitTimeSeconds: 0,
      VisibilityTimeout: HOLD_SECONDS,
      MessageSystemAttributeNames: ['SentTimestamp', 'ApproximateReceiveCount'],
    }),
  );
  return out.Messages ?? [];
}

/**
 * `dlq inspect`: up to `max` messages, read and left in the DLQ: each is received with a short
 * visibility timeout (so one read does not see a message twice), then made visible again at once
 * (ChangeMessageVisibility 0). Reading counts as a receive (receive_count grows by one).
 */
export async function inspectDlq(sqs: SQSClient, dlq: Dlq, max: number): Promise<MessageView[]> {
  const read: Message[] = [];
  const seen = new Set<string>();
  try {
    while (read.length < max) {
      const batch = (await receive(sqs, dlq.dlqUrl, max - read.length)).filter((m) => m.MessageId && !seen.has(m.MessageId));
      if (batch.length === 0) break;
      for (const m of batch) seen.add(String(m.MessageId));
      read.push(...batch);
    }
  } finally {
    for (let i = 0; i < read.length; i += 10) {
      const entries = read.slice(i, i + 10).map((m, n) => ({ Id: String(n), ReceiptHandle: String(m.ReceiptHandle), VisibilityTimeout: 0 }));
      await sqs.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: dlq.dlqUrl, Entries: entries }));
    }
  }
  return read.map((m) => messageView(dlq.queue, m));
}

/**
 * `dlq redrive`: up to `max` messages back to the queue they came from, each sent there (same body,
 * no delay) and then deleted from the DLQ: a crash in between leaves a copy in both, which the
 * consumers absorb (payouts by the bank's idempotency key, webhooks by the attempt number).
 */
export async function redriveDlq(sqs: SQSClient, dlq: Dlq, max: number): Promise<number> {
  if (!dlq.sourceUrl) throw new Error(`The ${dlq.queue} queue has no source queue`);
  let moved = 0;
  const seen = new Set<string>();
  while (moved < max) {
    const batch = (await receive(sqs, dlq.dlqUrl, max - moved)).filter((m) => m.MessageId && !seen.has(m.MessageId));
    if (batch.length === 0) break;
    for (const message of batch) {
      seen.add(String(message.MessageId));
      await sqs.send(new SendMessageCommand({ QueueUrl: dlq.sourceUrl, MessageBody: message.Body ?? '' }));
      await sqs.send(new DeleteMessageCommand({ QueueUrl: dlq.dlqUrl, ReceiptHandle: message.ReceiptHandle }));
      moved += 1;
    }
  }
  return moved;
}

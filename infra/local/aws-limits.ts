import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';

/**
 * AWS's limits, enforced on the local stack's and the tests' SDK clients (never installed in AWS,
 * where the services enforce them). The emulators accept what AWS refuses (a 43,200 s visibility
 * change late in a message's life, a delay over 15 minutes, an oversized key); without this the
 * suite would be green on code that fails when deployed. Facts: ../shared/notes/aws-limits.md.
 */
export const SQS_LIMITS = { maxDelaySeconds: 900, maxVisibilitySeconds: 43_200, maxMessageBytes: 262_144, maxBatch: 10 } as const;
export const DYNAMODB_LIMITS = {
  maxItemBytes: 400 * 1024,
  maxTransactItems: 100,
  maxTransactBytes: 4 * 1024 * 1024,
  maxPartitionKeyBytes: 2048,
  maxSortKeyBytes: 1024,
} as const;

/** The error AWS answers, with the name the SDK gives it (callers see what they would see in AWS). */
export class AwsLimitError extends Error {
  constructor(name: 'ValidationException' | 'InvalidParameterValue' | 'TooManyEntriesInBatchRequest' | 'BatchRequestTooLong', message: string) {
    super(`${message} (an AWS limit, enforced locally)`);
    this.name = name;
  }
}

type Input = Record<string, unknown>;
const bytes = (value: unknown) => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value ?? ''), 'utf8');

/** SQS: refuses what SQS refuses. `received` remembers when each receipt handle was received (visibility is capped at 12 h from it). */
export function checkSqs(command: string, input: Input, received: ReadonlyMap<string, number>, nowMs: number): void {
  const delay = (value: unknown) => {
    if (value !== undefined && (Number(value) < 0 || Number(value) > SQS_LIMITS.maxDelaySeconds))
      throw new AwsLimitError('InvalidParameterValue', `DelaySeconds must be 0 to ${SQS_LIMITS.maxDelaySeconds}, got ${String(value)}`);
  };
  const size = (entries: { MessageBody?: unknown; MessageAttributes?: unknown }[]) => {
    const total = entries.reduce((sum, e) => sum + bytes(e.MessageBody) + (e.MessageAttributes ? bytes(e.MessageAttributes) : 0), 0);
    if (total > SQS_LIMITS.maxMessageBytes) throw new AwsLimitError('BatchRequestTooLong', `Messages of ${total} bytes exceed ${SQS_LIMITS.maxMessageBytes}`);
  };
  const batch = (entries: unknown) => {
    if (Array.isArray(entries) && entries.length > SQS_LIMITS.maxBatch)
      throw new AwsLimitError('TooManyEntriesInBatchRequest', `A batch holds at most ${SQS_LIMITS.maxBatch} entries, got ${entries.length}`);
  };
  const visibility = (handle: unknown, seconds: unknown) => {
    const value = Number(seconds);
    if (!(value >= 0 && value <= SQS_LIMITS.maxVisibilitySeconds))
      throw new AwsLimitError('InvalidParameterValue', `VisibilityTimeout must be 0 to 43200, got ${String(seconds)}`);
    const since = received.get(String(handle));
    if (since !== undefined && (nowMs - since) / 1000 + value > SQS_LIMITS.maxVisibilitySeconds)
      throw new AwsLimitError('InvalidParameterValue', 'Total VisibilityTimeout for the message is beyond the limit of 12 hours from its receipt');
  };
  switch (command) {
    case 'SendMessageCommand':
      delay(input.DelaySeconds);
      size([input]);
      return;
    case 'SendMessageBatchCommand': {
      const entries = (input.Entries ?? []) as Input[];
      batch(entries);
      for (const entry of entries) delay(entry.DelaySeconds);
      size(entries);
      return;
    }
    case 'ReceiveMessageCommand':
      if (input.MaxNumberOfMessages !== undefined && Number(input.MaxNumberOfMessages) > SQS_LIMITS.maxBatch)
        throw new AwsLimitError('InvalidParameterValue', 'MaxNumberOfMessages must be 1 to 10');
      return;
    case 'ChangeMessageVisibilityCommand':
      visibility(input.ReceiptHandle, input.VisibilityTimeout);
      return;
    case 'ChangeMessageVisibilityBatchCommand':
    case 'DeleteMessageBatchCommand': {
      const entries = (input.Entries ?? []) as Input[];
      batch(entries);
      if (command === 'ChangeMessageVisibilityBatchCommand') for (const entry of entries) visibility(entry.ReceiptHandle, entry.VisibilityTimeout);
      return;
    }
    default:
      return;
  }
}

/** A key attribute's text, plain (document client) or marshalled ({S: …}). */
const keyText = (value: unknown) => (value && typeof value === 'object' && 'S' in value ? (value as { S: unknown }).S : value);

/** DynamoDB: key sizes, item sizes, transaction sizes (document client or low-level command names and input). */
export function checkDynamoDb(commandName: string, input: Input): void {
  const command = commandName.replace(/(Item|Items)?Command$/, '');
  const key = (k: unknown) => {
    if (!k || typeof k !== 'object') return;
    const { PK, SK } = k as { PK?: unknown; SK?: unknown };
    if (PK !== undefined && bytes(keyText(PK)) > DYNAMODB_LIMITS.maxPartitionKeyBytes)
      throw new AwsLimitError('ValidationException', `Hash primary key values must be under ${DYNAMODB_LIMITS.maxPartitionKeyBytes} bytes`);
    if (SK !== undefined && bytes(keyText(SK)) > DYNAMODB_LIMITS.maxSortKeyBytes)
      throw new AwsLimitError('ValidationException', `Range primary key values must be under ${DYNAMODB_LIMITS.maxSortKeyBytes} bytes`);
  };
  const item = (value: unknown) => {
    key(value);
    if (value && bytes(value) > DYNAMODB_LIMITS.maxItemBytes) throw new AwsLimitError('ValidationException', 'Item size has exceeded the maximum allowed size');
  };
  const write = (operation: Input | undefined): number => {
    if (!operation) return 0;
    if (operation.Item) item(operation.Item);
    key(operation.Key);
    return bytes(operation);
  };
  switch (command) {
    case 'Put':
      item(input.Item);
      return;
    case 'Get':
    case 'Update':
    case 'Delete':
      key(input.Key);
      return;
    case 'TransactWrite': {
      const actions = (input.TransactItems ?? []) as Record<string, Input | undefined>[];
      if (actions.length > DYNAMODB_LIMITS.maxTransactItems)
        throw new AwsLimitError('ValidationException', `Member must have length less than or equal to ${DYNAMODB_LIMITS.maxTransactItems}`);
      const total = actions.reduce((sum, a) => sum + write(a.Put) + write(a.Update) + write(a.Delete) + write(a.ConditionCheck), 0);
      if (total > DYNAMODB_LIMITS.maxTransactBytes) throw new AwsLimitError('ValidationException', 'Transaction request cannot be larger than 4 MB');
      return;
    }
    default:
      return;
  }
}

const NAME = 'awsLimits';

/** Installs the SQS checks on a client (idempotent). Receipt times are kept per client. */
export function enforceSqsLimits(sqs: SQSClient, now: () => number = Date.now): void {
  const received = new Map<string, number>();
  sqs.middlewareStack.add(
    (next, context) => async (args) => {
      checkSqs(context.commandName ?? '', args.input as Input, received, now());
      const out = await next(args);
      if (context.commandName === 'ReceiveMessageCommand') {
        for (const message of (out.output as { Messages?: { ReceiptHandle?: string }[] }).Messages ?? [])
          if (message.ReceiptHandle) received.set(message.ReceiptHandle, now());
        if (received.size > 100_000) received.clear();
      }
      return out;
    },
    { step: 'initialize', name: NAME, override: true },
  );
}

/** Installs the DynamoDB checks on a document client (idempotent). */
export function enforceDynamoDbLimits(db: DynamoDBDocumentClient): void {
  db.middlewareStack.add(
    (next, context) => async (args) => {
      checkDynamoDb(context.commandName ?? '', args.input as Input);
      return next(args);
    },
    { step: 'initialize', name: NAME, override: true },
  );
}

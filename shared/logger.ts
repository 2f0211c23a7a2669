import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'aws-lambda';
import { redactLogValue } from './redaction';

/**
 * What identifies the work a log line belongs to, besides the Lambda context: the route, API Gateway's
 * request id, the account, the invoice or withdraw reference, the outbox event id, the SQS message id.
 * Identifiers only: never bodies, headers, keys, tokens, card data or documents.
 */
export type LogKeys = {
  route?: string;
  /** API Gateway's request id (the access log's requestId); the Lambda's own is function_request_id. */
  requestId?: string;
  accountId?: string;
  reference?: string;
  eventId?: string;
  messageId?: string;
  /** A queued mail message (the mail worker). */
  mailId?: string;
  worker?: string;
};

/** Keys of a unit of work inside an invocation (one SQS message of a batch handled concurrently with others). */
const scoped = new AsyncLocalStorage<LogKeys>();
/** Keys read at each line of the current invocation (e.g. the account, known once the caller is authenticated). */
let lateKeys: (() => LogKeys) | undefined;

function definedKeys(keys: LogKeys): LogKeys {
  return Object.fromEntries(Object.entries(keys).filter(([, v]) => v !== undefined && v !== '')) as LogKeys;
}

function safeKeys(read: () => LogKeys): LogKeys {
  try {
    return definedKeys(read());
  } catch {
    return {};
  }
}

/** What a line carries besides its message: identifiers and figures, or an error alone. */
type Attributes = Record<string, unknown> | Error;

const LEVELS = { DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, CRITICAL: 24, SILENT: 28 } as const;
type Level = keyof typeof LEVELS;

function threshold(): number {
  const named = (process.env.POWERTOOLS_LOG_LEVEL ?? process.env.AWS_LAMBDA_LOG_LEVEL ?? 'INFO').toUpperCase();
  return named in LEVELS ? LEVELS[named as Level] : LEVELS.INFO;
}

/**
 * Structured JSON logs, one line per call on stdout (what Lambda sends to CloudWatch Logs as is): the
 * layout Powertools Logger printed (level, message, timestamp, service, cold_start, function_name,
 * function_request_id, function_arn, function_memory_size, sampling_rate, xray_trace_id), then the
 * invocation's late keys, its keys and the scope's keys; what a call passes itself wins. Every value
 * goes through shared/redaction.ts before it is printed; request and response bodies, headers, keys,
 * tokens, card data and taxpayer documents are never passed to it anyway: log identifiers, routes,
 * statuses and timings only. Written here (a few lines) rather than bundled from a library, so every
 * function stays within its size budget (issue 26).
 */
class JsonLogger {
  private keys: LogKeys = {};
  private context: InvocationContext = {};
  private coldStart: boolean | undefined;
  private invocations = 0;
  private readonly minimum = threshold();

  constructor(private readonly service: string) {}

  debug(message: string, attributes: Attributes = {}): void {
    this.write('DEBUG', message, attributes);
  }

  info(message: string, attributes: Attributes = {}): void {
    this.write('INFO', message, attributes);
  }

  warn(message: string, attributes: Attributes = {}): void {
    this.write('WARN', message, attributes);
  }

  error(message: string, attributes: Attributes = {}): void {
    this.write('ERROR', message, attributes);
  }

  /** A new invocation's Lambda context (the first one of the container is its cold start), its keys reset. */
  startInvocation(context: InvocationContext, keys: LogKeys): void {
    this.context = context;
    // As Powertools said it: the container's first invocation, in Lambda, on demand (never outside Lambda).
    this.coldStart = this.invocations === 0 && process.env.AWS_LAMBDA_INITIALIZATION_TYPE === 'on-demand';
    this.invocations += 1;
    this.keys = keys;
  }

  appendKeys(keys: LogKeys): void {
    this.keys = { ...this.keys, ...keys };
  }

  resetKeys(): void {
    this.keys = {};
  }

  private write(level: Level, message: string, given: Attributes): void {
    if (LEVELS[level] < this.minimum) return;
    // An error passed alone is the line's `error` (as Powertools printed it).
    const attributes = given instanceof Error ? { error: given } : given;
    const c = this.context;
    const line = {
      level,
      message,
      timestamp: new Date().toISOString(),
      service: this.service,
      cold_start: this.coldStart,
      function_name: c.functionName,
      function_request_id: c.awsRequestId,
      function_arn: c.invokedFunctionArn,
      function_memory_size: c.memoryLimitInMB === undefined ? undefined : String(c.memoryLimitInMB),
      sampling_rate: 0,
      xray_trace_id: process.env._X_AMZN_TRACE_ID?.split(';')[0]?.replace('Root=', ''),
      ...(lateKeys ? safeKeys(lateKeys) : {}),
      ...this.keys,
      ...scoped.getStore(),
      ...attributes,
    };
    let text: string;
    try {
      text = JSON.stringify(line, redactLogValue);
    } catch {
      text = JSON.stringify({ level, message: redactLogValue('message', message), timestamp: line.timestamp, service: this.service, note: 'attributes not printable' });
    }
    process.stdout.write(`${text}\n`);
  }
}

export const logger = new JsonLogger(process.env.POWERTOOLS_SERVICE_NAME ?? 'payment-gateway');

/** The parts of a Lambda context the logs use; the local stack and tests may pass a partial one, or none. */
export type InvocationContext = Partial<Pick<Context, 'awsRequestId' | 'functionName' | 'functionVersion' | 'invokedFunctionArn' | 'memoryLimitInMB'>>;

/**
 * Starts an invocation's logging: its Lambda context (request id, function name, cold start) and its
 * keys on every line until `endInvocation`. Whatever a previous invocation of this container added is
 * dropped first. `late` is read at each line (values that become known during the invocation).
 */
export function startInvocation(context: InvocationContext | undefined, keys: LogKeys = {}, late?: () => LogKeys): void {
  lateKeys = late;
  // A missing context still replaces the previous invocation's (its request id must not carry over).
  logger.startInvocation(context ?? {}, definedKeys(keys));
}

/** Adds keys to the rest of the current invocation's lines. */
export function addLogKeys(keys: LogKeys): void {
  logger.appendKeys(definedKeys(keys));
}

/** Ends an invocation's logging: its keys leave (the Lambda context stays until the next invocation replaces it). */
export function endInvocation(): void {
  logger.resetKeys();
  lateKeys = undefined;
}

/**
 * Runs `work` with these keys on every line it logs, also across its awaits and alongside other units
 * of work of the same invocation (the messages of a batch are handled concurrently).
 */
export function withLogKeys<T>(keys: LogKeys, work: () => T): T {
  return scoped.run({ ...scoped.getStore(), ...definedKeys(keys) }, work);
}

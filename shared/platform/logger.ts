import { AsyncLocalStorage } from 'node:async_hooks';
import { LogFormatter, LogItem, Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import type { Context } from 'aws-lambda';
import { loggedError, redactLogValue } from './redaction';

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
/** The current invocation's keys (startInvocation, addLogKeys), until endInvocation. */
let invocationKeys: LogKeys = {};
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

/** A log line printed as the formatter built it: null and empty values stay, as they always did. */
class LineItem extends LogItem {
  override prepareForPrint(): void {}
}

/**
 * The line's layout (as Powertools' own formatter prints it, and as it always was here): level,
 * message, timestamp (ISO, UTC), service, cold_start, function_name, function_request_id,
 * function_arn, function_memory_size, sampling_rate, xray_trace_id, then the invocation's late keys,
 * its keys and the scope's keys; what a call passes itself wins. An error is printed as
 * shared/platform/redaction.ts reduces it (name, kind, code, message, stack, cause), never its other properties.
 */
class GatewayLogFormatter extends LogFormatter {
  override formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const c = attributes.lambdaContext;
    return new LineItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: attributes.timestamp.toISOString(),
        service: attributes.serviceName,
        cold_start: c?.coldStart,
        function_name: c?.functionName,
        function_request_id: c?.awsRequestId,
        function_arn: c?.invokedFunctionArn,
        function_memory_size: c?.memoryLimitInMB === undefined ? undefined : String(c.memoryLimitInMB),
        sampling_rate: attributes.sampleRateValue,
        xray_trace_id: attributes.xRayTraceId,
        ...(lateKeys ? safeKeys(lateKeys) : {}),
        ...invocationKeys,
        ...scoped.getStore(),
        ...additional,
      },
    });
  }

  override formatError(error: Error): LogAttributes {
    return loggedError(error);
  }
}

/**
 * Powertools Logger, every line on stdout (Lambda sends stdout and stderr alike to CloudWatch Logs;
 * the local stack and the tests read one stream), each value through shared/platform/redaction.ts (its
 * `jsonReplacerFn`) before it is printed. A line whose attributes cannot be printed still says its
 * level and message.
 */
class GatewayLogger extends Logger {
  protected override printLog(logLevel: number, log: LogItem): void {
    log.prepareForPrint();
    const attributes = log.getAttributes();
    let text: string;
    try {
      text = JSON.stringify(attributes, this.getJsonReplacer());
    } catch {
      const { level, message, timestamp, service } = attributes;
      text = JSON.stringify({ level, message: redactLogValue('message', message), timestamp, service, note: 'attributes not printable' });
    }
    process.stdout.write(`${text}\n`);
  }
}

/**
 * Structured JSON logs: Powertools Logger (@aws-lambda-powertools/logger) configured with the layout
 * above and the redaction replacer. Request and response bodies, headers, keys, tokens, card data and
 * taxpayer documents are never passed to it anyway: log identifiers, routes, statuses and timings only.
 * The level comes from POWERTOOLS_LOG_LEVEL (or Lambda's log level), the sampling rate from
 * POWERTOOLS_LOGGER_SAMPLE_RATE, as Powertools reads them.
 */
export const logger: Logger = new GatewayLogger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'payment-gateway',
  logFormatter: new GatewayLogFormatter(),
  jsonReplacerFn: redactLogValue,
});

/** The parts of a Lambda context the logs use; the local stack and tests may pass a partial one, or none. */
export type InvocationContext = Partial<Pick<Context, 'awsRequestId' | 'functionName' | 'functionVersion' | 'invokedFunctionArn' | 'memoryLimitInMB'>>;

/**
 * Starts an invocation's logging: its Lambda context (request id, function name, cold start: Powertools'
 * `addContext`) and its keys on every line until `endInvocation`. Whatever a previous invocation of this
 * container added is dropped first. `late` is read at each line (values that become known during the
 * invocation).
 */
export function startInvocation(context: InvocationContext | undefined, keys: LogKeys = {}, late?: () => LogKeys): void {
  lateKeys = late;
  invocationKeys = definedKeys(keys);
  const c = context ?? {};
  // A missing context still replaces the previous invocation's (its request id must not carry over).
  logger.addContext({
    awsRequestId: c.awsRequestId,
    functionName: c.functionName,
    functionVersion: c.functionVersion,
    invokedFunctionArn: c.invokedFunctionArn,
    memoryLimitInMB: c.memoryLimitInMB,
  } as Context);
}

/** Adds keys to the rest of the current invocation's lines. */
export function addLogKeys(keys: LogKeys): void {
  invocationKeys = { ...invocationKeys, ...definedKeys(keys) };
}

/** Ends an invocation's logging: its keys leave (the Lambda context stays until the next invocation replaces it). */
export function endInvocation(): void {
  invocationKeys = {};
  lateKeys = undefined;
}

/**
 * Runs `work` with these keys on every line it logs, also across its awaits and alongside other units
 * of work of the same invocation (the messages of a batch are handled concurrently).
 */
export function withLogKeys<T>(keys: LogKeys, work: () => T): T {
  return scoped.run({ ...scoped.getStore(), ...definedKeys(keys) }, work);
}

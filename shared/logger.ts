import { AsyncLocalStorage } from 'node:async_hooks';
import { LogFormatter, LogItem, Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
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
  worker?: string;
};

/** Keys of a unit of work inside an invocation (one SQS message of a batch handled concurrently with others). */
const scoped = new AsyncLocalStorage<LogKeys>();
/** Keys read at each line of the current invocation (e.g. the account, known once the caller is authenticated). */
let lateKeys: (() => LogKeys) | undefined;

function definedKeys(keys: LogKeys): LogKeys {
  return Object.fromEntries(Object.entries(keys).filter(([, v]) => v !== undefined && v !== '')) as LogKeys;
}

/**
 * The Powertools layout (level, message, timestamp, service, cold_start, function_name,
 * function_request_id, xray_trace_id…), plus the invocation's late keys and the scope's keys; what a
 * call passes itself wins.
 */
class ContextFormatter extends LogFormatter {
  override formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const context = attributes.lambdaContext;
    const base: LogAttributes = {
      level: attributes.logLevel,
      message: attributes.message,
      timestamp: this.formatTimestamp(attributes.timestamp),
      service: attributes.serviceName,
      cold_start: context?.coldStart,
      function_name: context?.functionName,
      function_request_id: context?.awsRequestId,
      function_arn: context?.invokedFunctionArn,
      function_memory_size: context?.memoryLimitInMB,
      sampling_rate: attributes.sampleRateValue,
      xray_trace_id: attributes.xRayTraceId,
    };
    const late = lateKeys ? safeKeys(lateKeys) : {};
    return new LogItem({ attributes: base }).addAttributes({ ...late, ...scoped.getStore(), ...additional });
  }
}

function safeKeys(read: () => LogKeys): LogKeys {
  try {
    return definedKeys(read());
  } catch {
    return {};
  }
}

/**
 * Structured JSON logs (Powertools Logger). Every value goes through shared/redaction.ts before it is
 * printed; request and response bodies, headers, keys, tokens, card data and taxpayer documents are
 * never passed to it anyway: log identifiers, routes, statuses and timings only.
 */
export const logger = new Logger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'payment-gateway',
  logFormatter: new ContextFormatter(),
  jsonReplacerFn: redactLogValue,
});

/** The parts of a Lambda context the logs use; the local stack and tests may pass a partial one, or none. */
export type InvocationContext = Partial<Pick<Context, 'awsRequestId' | 'functionName' | 'functionVersion' | 'invokedFunctionArn' | 'memoryLimitInMB'>>;

/**
 * Starts an invocation's logging: its Lambda context (request id, function name, cold start) and its
 * keys on every line until `endInvocation`. Whatever a previous invocation of this container added is
 * dropped first. `late` is read at each line (values that become known during the invocation).
 */
export function startInvocation(context: InvocationContext | undefined, keys: LogKeys = {}, late?: () => LogKeys): void {
  logger.resetKeys();
  lateKeys = late;
  const c = context ?? {};
  // A missing context still replaces the previous invocation's (its request id must not carry over).
  logger.addContext({
    awsRequestId: c.awsRequestId,
    functionName: c.functionName,
    functionVersion: c.functionVersion,
    invokedFunctionArn: c.invokedFunctionArn,
    memoryLimitInMB: c.memoryLimitInMB,
  } as Context);
  logger.appendKeys(definedKeys(keys));
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

/** DynamoDB's throttling errors, by name: the table was busy and wrote nothing (the SDK has already retried them). */
const THROTTLED = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

export function isThrottled(err: unknown): boolean {
  return typeof err === 'object' && err !== null && THROTTLED.has(String((err as { name?: unknown }).name));
}

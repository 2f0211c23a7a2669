import { dynamoEventLog } from '../adapters/dynamo/event-log';
import type { EventsPorts } from '../app/events/events-api';
import type { Runtime } from './runtime';
import { webhookPorts } from './webhooks';

/** The events API's ports over the runtime's table (issue 29). */
export function eventsPorts(runtime: Runtime): EventsPorts & { webhooks: ReturnType<typeof webhookPorts>['webhooks'] } {
  return { log: dynamoEventLog(runtime.db, runtime.config.tableName), webhooks: webhookPorts(runtime).webhooks, now: () => runtime.clock.now() };
}

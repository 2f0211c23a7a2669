import type { ChangeCompilers } from '../adapters/dynamo/changes';
import { customerCompilers, dynamoCustomers } from '../adapters/dynamo/customers';
import type { CustomerStore } from '../ports/customers';
import type { Runtime } from './runtime';

/** The changes of the customers' use cases. */
export const customerChanges: ChangeCompilers = customerCompilers;

/** The customer store over the runtime's table. */
export function customerPorts(runtime: Runtime): { customers: CustomerStore } {
  return { customers: dynamoCustomers(runtime.db, runtime.config.tableName, async () => (await runtime.serviceKeys()).personalData) };
}

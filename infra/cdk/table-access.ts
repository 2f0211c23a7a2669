import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Access } from '../../shared/http/route';

/** Partition key prefixes of the rate-limit counters (shared/storage/keys.ts: account and ipCounter). */
export const COUNTER_LEADING_KEYS = ['ACCT#*', 'RL#*'];
/** Every attribute a counter update names (shared/ratelimit/counter.ts), keys included. */
export const COUNTER_ATTRIBUTES = ['PK', 'SK', 'kv', 'rlWin', 'rlCnt', 'ttl'];

export const READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];

/**
 * Grants a function's role the table access its route declares.
 * - none: nothing.
 * - read: reads on the table and its indexes, plus UpdateItem limited by IAM conditions to the
 *   counter attributes of ACCT# and RL# items, so a read handler can count its own calls and
 *   nothing else.
 * - write: full item access. TransactWriteItems is not an IAM action: a transaction is authorized
 *   by the PutItem/UpdateItem/DeleteItem/ConditionCheckItem actions of its parts, all granted here.
 */
export function grantTableAccess(role: iam.IRole, table: dynamodb.ITable, access: Access): void {
  switch (access) {
    case 'none':
      return;
    case 'read':
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'ReadItems',
          actions: READ_ACTIONS,
          resources: [table.tableArn, `${table.tableArn}/index/*`],
        }),
      );
      role.addToPrincipalPolicy(
        new iam.PolicyStatement({
          sid: 'CountOwnCalls',
          actions: ['dynamodb:UpdateItem'],
          resources: [table.tableArn],
          conditions: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': COUNTER_LEADING_KEYS },
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': COUNTER_ATTRIBUTES },
          },
        }),
      );
      return;
    case 'write':
      table.grantReadWriteData(role);
      return;
  }
}

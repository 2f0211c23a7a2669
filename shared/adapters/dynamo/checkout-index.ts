import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { SWEEP_INDEX } from './sweep-index';
import type { OpenCheckoutIndex } from '../../ports/checkouts';
import { openPartitions } from './checkout-item';
import type { Db } from './dynamo';

/** The upkeep's index of open checkouts over the table (GSI2: CHKOPEN# and CHKUNK# partitions). */
export function dynamoOpenCheckouts(db: Db, table: string): OpenCheckoutIndex {
  return {
    openPartitions: openPartitions('open'),
    unknownPartitions: openPartitions('unknown'),
    async references(partition, limit, before) {
      const out = await db.send(
        new QueryCommand({
          TableName: table,
          IndexName: SWEEP_INDEX,
          KeyConditionExpression: before === undefined ? 'GSI2PK = :p' : 'GSI2PK = :p AND GSI2SK < :before',
          ExpressionAttributeValues: before === undefined ? { ':p': partition } : { ':p': partition, ':before': before },
          ProjectionExpression: 'PK',
          Limit: limit,
        }),
      );
      return (out.Items ?? []).map((item) => String(item.PK).replace(/^CHK#/, ''));
    },
  };
}

import { CreateTableCommand, DescribeTableCommand, type DynamoDBClient, UpdateTableCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { tableShape } from '../../shared/adapters/dynamo/table';

/** Creates the service's table on DynamoDB Local with the same shape the CDK stack deploys (idempotent). */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<{ streamArn: string }> {
  try {
    const existing = await client.send(new DescribeTableCommand({ TableName: tableName }));
    // A database kept from an older version (LOCAL_DATA_DIR) gains the indexes added since.
    const present = new Set((existing.Table?.GlobalSecondaryIndexes ?? []).map((gsi) => gsi.IndexName));
    for (const gsi of tableShape.globalSecondaryIndexes.filter((g) => !present.has(g.indexName))) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: [gsi.partitionKey, gsi.sortKey].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
          GlobalSecondaryIndexUpdates: [
            {
              Create: {
                IndexName: gsi.indexName,
                KeySchema: [
                  { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
                  { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
                ],
                Projection: { ProjectionType: 'ALL' },
              },
            },
          ],
        }),
      );
    }
    return { streamArn: existing.Table?.LatestStreamArn ?? '' };
  } catch (err) {
    if ((err as { name?: string }).name !== 'ResourceNotFoundException') throw err;
  }
  const attributes = new Set<string>([tableShape.partitionKey, tableShape.sortKey]);
  for (const gsi of tableShape.globalSecondaryIndexes) {
    attributes.add(gsi.partitionKey);
    attributes.add(gsi.sortKey);
  }
  const created = await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: tableShape.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableShape.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: tableShape.globalSecondaryIndexes.map((gsi) => ({
        IndexName: gsi.indexName,
        KeySchema: [
          { AttributeName: gsi.partitionKey, KeyType: 'HASH' },
          { AttributeName: gsi.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: tableShape.timeToLiveAttribute, Enabled: true } }),
  );
  return { streamArn: created.TableDescription?.LatestStreamArn ?? '' };
}

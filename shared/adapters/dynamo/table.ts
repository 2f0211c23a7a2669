/**
 * The one DynamoDB table's shape, read by the CDK stack and by the local stack so both
 * build the same table. Item types, keys and access patterns: docs/architecture.md.
 */
export const tableShape = {
  partitionKey: 'PK',
  sortKey: 'SK',
  timeToLiveAttribute: 'ttl',
  globalSecondaryIndexes: [
    // Lists only (newest first per account and item type); lookups use the main key.
    { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    // Sparse: items the stream has not forwarded yet, by creation time (shared/adapters/dynamo/sweep-index.ts).
    { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
  ],
} as const;

export type TableShape = typeof tableShape;

import { ensureTable } from '/work/main/infra/local/table.ts';
import { startDynamoDbLocal } from '/work/main/infra/local/dynamodb.ts';
import { DynamoDBClient, CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { localAwsConfig } from '/work/main/infra/local/aws.ts';
const port = 18000 + Math.floor(Math.random()*1000);
const d = await startDynamoDbLocal(port);
try {
  const c = new DynamoDBClient({ ...localAwsConfig(), endpoint: d.endpoint });
  await ensureTable(c, 'ttt');
  const db = DynamoDBDocumentClient.from(c);
  const Key = { PK: 'a', SK: 'b' };
  await db.send(new UpdateCommand({ TableName: 'ttt', Key, UpdateExpression: 'SET l = :l', ExpressionAttributeValues: { ':l': [1,2,3] } }));
  try {
    await db.send(new UpdateCommand({ TableName: 'ttt', Key, UpdateExpression: 'SET l[3] = :t REMOVE l[0]', ConditionExpression: 'l[0] <= :c AND size(l) = :n', ExpressionAttributeValues: { ':t': 4, ':c': 1, ':n': 3 }, ReturnConsumedCapacity: 'TOTAL' }));
    console.log('A', (await db.send(new GetCommand({ TableName: 'ttt', Key }))).Item);
  } catch (e) { console.log('A err', (e as Error).message); }
  try {
    await db.send(new UpdateCommand({ TableName: 'ttt', Key, UpdateExpression: 'SET l = list_append(l, :t) REMOVE l[0]', ExpressionAttributeValues: { ':t': [5] } }));
    console.log('B', (await db.send(new GetCommand({ TableName: 'ttt', Key }))).Item);
  } catch (e) { console.log('B err', (e as Error).message); }
  try {
    await db.send(new UpdateCommand({ TableName: 'ttt', Key, UpdateExpression: 'SET l[3] = :t REMOVE l[0]', ConditionExpression: 'l[0] <= :c', ExpressionAttributeValues: { ':t': 9, ':c': 1 }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }));
  } catch (e) { console.log('C err', (e as Error).name, JSON.stringify((e as any).Item)); }
  try {
    await db.send(new UpdateCommand({ TableName: 'ttt', Key: {PK:'new',SK:'b'}, UpdateExpression: 'SET l[3] = :t REMOVE l[0]', ConditionExpression: 'l[0] <= :c', ExpressionAttributeValues: { ':t': 9, ':c': 1 }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }));
  } catch (e) { console.log('D err', (e as Error).name, JSON.stringify((e as any).Item)); }
} finally { await d.stop(); }

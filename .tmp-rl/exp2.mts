import { startDynamoDbLocal } from '/work/main/infra/local/dynamodb.ts';
import { ensureTable } from '/work/main/infra/local/table.ts';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
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
  for (const old of [[1,2,3],[1,2,4]]) {
  try {
    await db.send(new UpdateCommand({ TableName: 'ttt', Key, UpdateExpression: 'SET l = :n', ConditionExpression: 'l = :old', ExpressionAttributeValues: { ':n': [7,8,9], ':old': old } }));
    console.log('eq ok', old, (await db.send(new GetCommand({ TableName: 'ttt', Key }))).Item);
  } catch (e) { console.log('eq err', old, (e as Error).name, (e as Error).message); }
  }
  // 1000 numbers ms
  const big = Array.from({length: 1000}, (_, i) => 1790000000000 + i);
  const r = await db.send(new UpdateCommand({ TableName: 'ttt', Key: {PK:'big',SK:'b'}, UpdateExpression: 'SET l = :n', ExpressionAttributeValues: { ':n': big }, ReturnConsumedCapacity: 'TOTAL' }));
  console.log('big cap', r.ConsumedCapacity);
  const r2 = await db.send(new UpdateCommand({ TableName: 'ttt', Key: {PK:'sixty',SK:'b'}, UpdateExpression: 'SET l = :n', ExpressionAttributeValues: { ':n': big.slice(0,60) }, ReturnConsumedCapacity: 'TOTAL' }));
  console.log('60 cap', r2.ConsumedCapacity);
} finally { await d.stop(); }

/**
 * The cold-start bench's floor: what every function of the service needs at the least, the DynamoDB
 * document client, built as the runtime builds it (lib-dynamodb over client-dynamodb).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

const db = DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });

// Touches the client so the bundler cannot drop it.
export const handler = async (): Promise<{ statusCode: number; body: string }> => ({ statusCode: 200, body: typeof db.send });

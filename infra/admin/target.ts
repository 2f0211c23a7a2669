import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDb, type Db } from '../../shared/storage/dynamo';
import { localAwsConfig } from '../local/aws';
import { LOCAL_TABLE } from '../local/constants';

export type Target = { db: Db; table: string; apiUrl: string; where: 'local' | 'aws' };

export type TargetFlags = { stack?: string; table?: string; region?: string };

/**
 * Where the operator CLI works. By default the running local stack (same PORT and DYNAMODB_PORT
 * as `npm start`); with --stack (table and API from the stack's outputs) or --table / TABLE_NAME,
 * a deployed stack through the usual AWS credential chain.
 */
export async function resolveTarget(flags: TargetFlags, env: NodeJS.ProcessEnv): Promise<Target> {
  const region = flags.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  const stackName = flags.stack ?? env.PAYMENT_GATEWAY_STACK;
  if (stackName) {
    const { CloudFormationClient, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
    const out = await new CloudFormationClient(region ? { region } : {}).send(new DescribeStacksCommand({ StackName: stackName }));
    const outputs = new Map((out.Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
    const table = outputs.get('TableName');
    if (!table) throw new Error(`Stack ${stackName} has no TableName output`);
    return { db: createDb(new DynamoDBClient(region ? { region } : {})), table, apiUrl: outputs.get('ApiUrl') ?? '', where: 'aws' };
  }
  const table = flags.table ?? (env.TABLE_NAME && env.TABLE_NAME !== LOCAL_TABLE ? env.TABLE_NAME : undefined);
  if (table) return { db: createDb(new DynamoDBClient(region ? { region } : {})), table, apiUrl: env.API_URL ?? '', where: 'aws' };
  const dynamoPort = env.DYNAMODB_PORT ?? '8000';
  const port = env.PORT ?? '3000';
  return {
    db: createDb(new DynamoDBClient({ ...localAwsConfig(), endpoint: `http://127.0.0.1:${dynamoPort}`, maxAttempts: 2 })),
    table: LOCAL_TABLE,
    apiUrl: `http://127.0.0.1:${port}`,
    where: 'local',
  };
}

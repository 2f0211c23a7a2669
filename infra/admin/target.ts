import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SQSClient } from '@aws-sdk/client-sqs';
import { deriveServiceKeys, type SecretSource, secretsManagerSource, type ServiceKeys } from '../../shared/adapters/secrets/master-key';
import { createDb, type Db } from '../../shared/adapters/dynamo/dynamo';
import { localAwsConfig } from '../local/aws';
import { LOCAL_MASTER_SECRET, LOCAL_PROVIDER_SECRET, LOCAL_TABLE } from '../local/constants';
import { readLocalStackInfo } from '../local/info-file';

/** Where the CLI works: the table, the API base URL, and (lazily) the provider credentials. */
export type Target = {
  db: Db;
  table: string;
  where: 'local' | 'aws';
  /** API base URL and the secret source holding the provider credentials (only commands that call the API need them). */
  api: () => Promise<{ baseUrl: string; secrets: SecretSource; providerSecretId: string }>;
  /** The service's derived keys, from the master key secret (commands that issue merchant secrets). */
  serviceKeys: () => Promise<ServiceKeys>;
  /**
   * The API Pix PSP the stack uses (`provider register-webhook`, `provider reconcile`): from the stack's
   * outputs with --stack, else from the APIPIX_* environment (a local run against a test PSP).
   */
  apiPix: () => Promise<ApiPixTarget>;
  /** SQS and the service's queues (commands that forward or redrive). */
  queues: () => Promise<{ sqs: SQSClient; payouts: string; webhooks: string; reconcile: string; mail: string; mailFeedback: string; streamFailures: string }>;
};

export type TargetFlags = { stack?: string; table?: string; region?: string };

export type ApiPixTarget = { baseUrl: string; tokenUrl: string | undefined; clientId: string; pixKey: string; secretId: string; secrets: SecretSource };

/** The API Pix settings from named values (stack outputs or environment); a missing one is named. */
function apiPixFrom(
  values: (name: string) => string | undefined,
  names: Record<'baseUrl' | 'tokenUrl' | 'clientId' | 'pixKey' | 'secretId', string>,
  secrets: SecretSource,
): ApiPixTarget {
  const missing = (['baseUrl', 'clientId', 'pixKey', 'secretId'] as const).filter((k) => !values(names[k]));
  if (missing.length > 0) throw new Error(`No API Pix PSP is configured: ${missing.map((k) => names[k]).join(', ')} missing`);
  return {
    baseUrl: String(values(names.baseUrl)),
    tokenUrl: values(names.tokenUrl) || undefined,
    clientId: String(values(names.clientId)),
    pixKey: String(values(names.pixKey)),
    secretId: String(values(names.secretId)),
    secrets,
  };
}

const ENV_NAMES = {
  baseUrl: 'APIPIX_BASE_URL',
  tokenUrl: 'APIPIX_TOKEN_URL',
  clientId: 'APIPIX_CLIENT_ID',
  pixKey: 'APIPIX_PIX_KEY',
  secretId: 'APIPIX_SECRET_ID',
};
const OUTPUT_NAMES = { baseUrl: 'ApiPixBaseUrl', tokenUrl: 'ApiPixTokenUrl', clientId: 'ApiPixClientId', pixKey: 'ApiPixPixKey', secretId: 'ApiPixSecretArn' };

const ROOT = join(import.meta.dirname, '..', '..');

async function keysFrom(secrets: SecretSource, secretId: string): Promise<ServiceKeys> {
  return deriveServiceKeys(await secrets.getSecretString(secretId));
}

/**
 * Where the operator CLI works. By default the running local stack (same PORT and DYNAMODB_PORT
 * as `npm start`); with --stack (table, API and secrets from the stack's outputs) or --table /
 * TABLE_NAME (table only), a deployed stack through the usual AWS credential chain.
 */
export async function resolveTarget(flags: TargetFlags, env: NodeJS.ProcessEnv): Promise<Target> {
  const region = flags.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  const aws = region ? { region } : {};
  const stackName = flags.stack ?? env.PAYMENT_GATEWAY_STACK;
  if (stackName) {
    const { CloudFormationClient, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
    const out = await new CloudFormationClient(aws).send(new DescribeStacksCommand({ StackName: stackName }));
    const outputs = new Map((out.Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
    const table = outputs.get('TableName');
    if (!table) throw new Error(`Stack ${stackName} has no TableName output`);
    return {
      db: createDb(new DynamoDBClient(aws)),
      table,
      where: 'aws',
      api: async () => ({
        baseUrl: outputs.get('ApiUrl') ?? '',
        secrets: secretsManagerSource(new SecretsManagerClient(aws)),
        providerSecretId: outputs.get('ProviderSecretArn') ?? '',
      }),
      serviceKeys: async () => {
        const secretId = outputs.get('MasterKeySecretArn');
        if (!secretId) throw new Error(`Stack ${stackName} has no MasterKeySecretArn output`);
        return keysFrom(secretsManagerSource(new SecretsManagerClient(aws)), secretId);
      },
      apiPix: async () => apiPixFrom((name) => outputs.get(name), OUTPUT_NAMES, secretsManagerSource(new SecretsManagerClient(aws))),
      queues: async () => ({
        sqs: new SQSClient(aws),
        payouts: outputs.get('PayoutQueueUrl') ?? '',
        webhooks: outputs.get('WebhookQueueUrl') ?? '',
        reconcile: outputs.get('ReconcileQueueUrl') ?? '',
        mail: outputs.get('MailQueueUrl') ?? '',
        mailFeedback: outputs.get('MailFeedbackQueueUrl') ?? '',
        streamFailures: outputs.get('StreamFailureQueueUrl') ?? '',
      }),
    };
  }
  const table = flags.table ?? (env.TABLE_NAME && env.TABLE_NAME !== LOCAL_TABLE ? env.TABLE_NAME : undefined);
  if (table) {
    return {
      db: createDb(new DynamoDBClient(aws)),
      table,
      where: 'aws',
      api: async () => {
        throw new Error('Commands that call the API need --stack NAME (the API URL and the provider secret come from its outputs)');
      },
      serviceKeys: async () => {
        throw new Error('Commands that issue secrets need --stack NAME (the master key secret comes from its outputs)');
      },
      apiPix: async () => {
        throw new Error('Commands that call the PSP need --stack NAME (its settings come from the outputs)');
      },
      queues: async () => {
        throw new Error('Commands that use the queues need --stack NAME (the queue URLs come from its outputs)');
      },
    };
  }
  const port = env.PORT ?? '3000';
  return {
    db: createDb(new DynamoDBClient({ ...localAwsConfig(), endpoint: `http://127.0.0.1:${env.DYNAMODB_PORT ?? '8000'}`, maxAttempts: 2 })),
    table: LOCAL_TABLE,
    where: 'local',
    api: async () => {
      const info = readLocalStackInfo(ROOT, port);
      return {
        baseUrl: info.baseUrl,
        secrets: secretsManagerSource(new SecretsManagerClient({ ...localAwsConfig(), endpoint: info.secretsEndpoint })),
        providerSecretId: info.providerSecretId ?? LOCAL_PROVIDER_SECRET,
      };
    },
    serviceKeys: async () => {
      const info = readLocalStackInfo(ROOT, port);
      return keysFrom(secretsManagerSource(new SecretsManagerClient({ ...localAwsConfig(), endpoint: info.secretsEndpoint })), LOCAL_MASTER_SECRET);
    },
    apiPix: async () => {
      const info = readLocalStackInfo(ROOT, port);
      return apiPixFrom(
        (name) => env[name],
        ENV_NAMES,
        secretsManagerSource(new SecretsManagerClient({ ...localAwsConfig(), endpoint: info.secretsEndpoint })),
      );
    },
    queues: async () => {
      const info = readLocalStackInfo(ROOT, port);
      return { sqs: new SQSClient({ ...localAwsConfig(), endpoint: info.sqsEndpoint }), ...info.queueUrls };
    },
  };
}

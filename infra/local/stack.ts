import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { CreateQueueCommand, GetQueueAttributesCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { IssuedKeys } from '../../shared/adapters/dynamo/accounts';
import { checkoutUpkeepWorker, queueList, queues, streamConsumerList, sweepWorker } from '../../shared/platform/queues';
import { getSqs } from '../../shared/adapters/sqs/client';
import { createDb, getDb } from '../../shared/adapters/dynamo/dynamo';
import { enforceDynamoDbLimits, enforceSqsLimits } from './aws-limits';
import { localAwsConfig } from './aws';
import { ensureDemoAccount } from './demo';
import { startDynamoDbLocal } from './dynamodb';
import { loadHandler } from './handlers';
import { startHttpServer } from './http-server';
import { lambdaContext } from './apigw-event';
import { withLocalFaultSwitch } from './faults';
import { type Poller, startQueuePoller, startStreamPoller, startTimer } from './pollers';
import { propagateChains } from './recursion';
import { startSecretsEndpoint } from './secrets-endpoint';
import { type SesEventSink, startMailEndpoint } from './mail-endpoint';
import { startSqsLocal } from './sqs';
import { ensureTable } from './table';
import { LOCAL_MAIL_CONFIGURATION_SET, LOCAL_MAIL_FROM, LOCAL_MASTER_SECRET, LOCAL_PROVIDER_SECRET, LOCAL_TABLE } from './constants';
import { asFunction, installIamEvaluation } from './iam/hook';
import { loadLocalIamPolicies } from './iam/load';
import type { LocalIamPolicies } from './iam/policies';

export { LOCAL_MASTER_SECRET, LOCAL_PROVIDER_SECRET, LOCAL_TABLE };

export type LocalStackOptions = {
  root: string;
  port: number;
  dynamodbPort: number;
  sqsPort: number;
  dataDir?: string;
  sweepIntervalSeconds?: number;
  checkoutUpkeepIntervalSeconds?: number;
};

export type LocalStack = {
  baseUrl: string;
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  secretsEndpoint: string;
  tableName: string;
  /** The queues the operator CLI forwards to and redrives from. */
  /** Where the SES stand-in keeps each message sent (one JSON file per message). */
  mailDir: string;
  /**
   * The authenticator's test clock (LOCAL_TOTP_CLOCK_DIR, shared/adapters/crypto/totp-clock.ts): a new
   * empty folder per start (the real clock) where the tests move an authenticator's clock forward.
   */
  totpClockDir: string;
  /** The synthesized role policies every handler's SDK calls are evaluated against (infra/local/iam/). */
  iamPoliciesFile: string;
  queueUrls: { payouts: string; webhooks: string; reconcile: string; mail: string; mailFeedback: string; streamFailures: string };
  masterKeySecretId: string;
  providerSecretId: string;
  demo: { created: IssuedKeys } | { existing: string };
  stop: () => Promise<void>;
};

/** Secret material for local runs: random per start, or kept beside a persistent database. */
function localSecret(dataDir: string | undefined, file: string, fresh: () => string): string {
  if (!dataDir) return fresh();
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, file);
  if (!existsSync(path)) writeFileSync(path, fresh(), { mode: 0o600 });
  return readFileSync(path, 'utf8');
}

const random = () => randomBytes(48).toString('base64url');

/**
 * The whole service on loopback: DynamoDB Local, the fauxqs SQS emulator, a Secrets Manager
 * endpoint, the API Gateway stand-in calling the real handlers, and the stream and queue pollers.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    stops.length = 0;
  };
  try {
    const secrets = await startSecretsEndpoint({
      [LOCAL_MASTER_SECRET]: localSecret(options.dataDir, 'master-key.json', () => JSON.stringify({ masterKey: random() })),
      [LOCAL_PROVIDER_SECRET]: localSecret(options.dataDir, 'provider-credentials.json', () => JSON.stringify({ simulated: random() })),
    });
    stops.push(secrets.stop);
    // SES's stand-in: each message the mail worker sends is kept under .local/mail/ (as a JSON file); the
    // mailbox simulator's bounces and complaints go to the mail feedback queue, as SNS delivers them (issue 44).
    const sesEvents: { sink?: SesEventSink } = {};
    const mail = await startMailEndpoint(join(options.root, '.local', 'mail'), 0, {
      configurationSet: LOCAL_MAIL_CONFIGURATION_SET,
      events: () => sesEvents.sink,
    });
    stops.push(mail.stop);
    // The authenticator's test clock: empty (the real clock) until a test moves an authenticator forward.
    mkdirSync(join(options.root, '.local'), { recursive: true });
    const totpClockDir = mkdtempSync(join(options.root, '.local', 'totp-clock-'));
    stops.push(async () => rmSync(totpClockDir, { recursive: true, force: true }));
    const [dynamo, sqs] = await Promise.all([startDynamoDbLocal(options.dynamodbPort, options.dataDir), startSqsLocal(options.sqsPort)]);
    stops.push(dynamo.stop, sqs.stop);

    Object.assign(process.env, {
      ...localAwsConfigEnv(),
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_ENDPOINT_URL_SQS: sqs.endpoint,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
      AWS_ENDPOINT_URL_SESV2: mail.endpoint,
      MAIL_FROM: process.env.MAIL_FROM ?? LOCAL_MAIL_FROM,
      MAIL_CONFIGURATION_SET: LOCAL_MAIL_CONFIGURATION_SET,
      TABLE_NAME: LOCAL_TABLE,
      MASTER_KEY_SECRET_ID: LOCAL_MASTER_SECRET,
      PROVIDER_SECRET_ID: LOCAL_PROVIDER_SECRET,
      PUBLIC_BASE_URL: `http://127.0.0.1:${options.port}`,
      CEP_PROVIDER: process.env.CEP_PROVIDER ?? 'fixture',
      LOCAL_TOTP_CLOCK_DIR: totpClockDir,
    });
    // The handlers' clients (created now, with the endpoints above) refuse what AWS refuses.
    enforceDynamoDbLimits(getDb());
    enforceSqsLimits(getSqs());
    // What the handlers send carries their invocation's chain (Lambda's recursive loop detection, ./recursion.ts).
    propagateChains(getSqs());
    // Each handler's AWS calls are evaluated against its function's role as synthesized (./iam/hook.ts).
    const iam = await localIamPolicies(options.root);
    installIamEvaluation(iam.policies);

    const dynamoClient = new DynamoDBClient({ ...localAwsConfig(), endpoint: dynamo.endpoint });
    const { streamArn } = await ensureTable(dynamoClient, LOCAL_TABLE);
    const store = { db: createDb(dynamoClient), table: LOCAL_TABLE, now: () => new Date() };
    const demo = await ensureDemoAccount(store);

    const sqsClient = new SQSClient({ ...localAwsConfig(), endpoint: sqs.endpoint });
    enforceSqsLimits(sqsClient);
    const pollers: Poller[] = [];
    for (const queue of queueList) {
      const dlq = await sqsClient.send(new CreateQueueCommand({ QueueName: `${queue.id}-dlq` }));
      const dlqArn = (await sqsClient.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn ?? '';
      const created = await sqsClient.send(
        new CreateQueueCommand({
          QueueName: queue.id,
          Attributes: {
            VisibilityTimeout: String(queue.visibilityTimeoutSeconds),
            RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: queue.maxReceiveCount }),
          },
        }),
      );
      const arn =
        (await sqsClient.send(new GetQueueAttributesCommand({ QueueUrl: created.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn ?? '';
      process.env[queue.urlEnv] = created.QueueUrl;
      if (queue.dlqUrlEnv) process.env[queue.dlqUrlEnv] = dlq.QueueUrl;
      pollers.push(
        startQueuePoller(sqsClient, created.QueueUrl ?? '', arn, {
          id: queue.id,
          handler: asFunction(`${queue.id}Worker`, await loadHandler(options.root, queue.handler)),
          recursiveLoop: queue.recursiveLoop,
          dlqUrl: dlq.QueueUrl ?? '',
        }),
      );
    }
    // The configuration set's event destination: SNS delivering to the mail feedback queue (its subscription).
    const feedbackQueueUrl = process.env[queues.mailFeedback.urlEnv] ?? '';
    sesEvents.sink = async (body) => void (await sqsClient.send(new SendMessageCommand({ QueueUrl: feedbackQueueUrl, MessageBody: body })));
    // Each stream consumer's on-failure destination: a plain queue (AWS: alarmed on its depth).
    const streamFailureUrls: string[] = [];
    const consumers = await Promise.all(
      streamConsumerList.map(async (def) => {
        const failures = (await sqsClient.send(new CreateQueueCommand({ QueueName: `${def.id}-failures` }))).QueueUrl ?? '';
        streamFailureUrls.push(failures);
        const handler = withLocalFaultSwitch(asFunction(def.id, await loadHandler(options.root, def.handler)), def.id, store.db, LOCAL_TABLE);
        const sink = async (record: object) => void (await sqsClient.send(new SendMessageCommand({ QueueUrl: failures, MessageBody: JSON.stringify(record) })));
        return { def, handler, failures: sink };
      }),
    );
    process.env.STREAM_FAILURE_QUEUE_URL = streamFailureUrls[0] ?? '';
    if (consumers.length > 0)
      pollers.push(startStreamPoller(new DynamoDBStreamsClient({ ...localAwsConfig(), endpoint: dynamo.endpoint }), streamArn, consumers));
    // The sweep's schedule (an EventBridge rule in AWS).
    const sweep = asFunction(sweepWorker.id, await loadHandler(options.root, sweepWorker.handler));
    pollers.push(startTimer('sweep', (options.sweepIntervalSeconds ?? 60) * 1000, () => sweep({}, lambdaContext(sweepWorker.id))));
    // The checkout upkeep's schedule (an EventBridge rule in AWS).
    const upkeep = asFunction(checkoutUpkeepWorker.id, await loadHandler(options.root, checkoutUpkeepWorker.handler));
    pollers.push(startTimer('checkout upkeep', (options.checkoutUpkeepIntervalSeconds ?? 60) * 1000, () => upkeep({}, lambdaContext(checkoutUpkeepWorker.id))));
    stops.push(async () => void (await Promise.all(pollers.map((p) => p.stop()))));

    const http = await startHttpServer(options.root, options.port);
    stops.push(http.stop);
    process.env.PUBLIC_BASE_URL = http.url;

    return {
      baseUrl: http.url,
      dynamodbEndpoint: dynamo.endpoint,
      sqsEndpoint: sqs.endpoint,
      secretsEndpoint: secrets.endpoint,
      mailDir: mail.dir,
      totpClockDir,
      iamPoliciesFile: iam.file,
      tableName: LOCAL_TABLE,
      queueUrls: {
        payouts: process.env.PAYOUT_QUEUE_URL ?? '',
        webhooks: process.env.WEBHOOK_QUEUE_URL ?? '',
        reconcile: process.env.RECONCILE_QUEUE_URL ?? '',
        mail: process.env.MAIL_QUEUE_URL ?? '',
        mailFeedback: process.env[queues.mailFeedback.urlEnv] ?? '',
        streamFailures: process.env.STREAM_FAILURE_QUEUE_URL ?? '',
      },
      masterKeySecretId: LOCAL_MASTER_SECRET,
      providerSecretId: LOCAL_PROVIDER_SECRET,
      demo,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** The policies LOCAL_IAM_POLICIES names (the test run synthesizes them once), else synthesized now (cached under .local/iam/). */
async function localIamPolicies(root: string): Promise<{ file: string; policies: LocalIamPolicies }> {
  const file = process.env.LOCAL_IAM_POLICIES;
  if (file) return { file, policies: JSON.parse(readFileSync(file, 'utf8')) as LocalIamPolicies };
  return loadLocalIamPolicies(root, process.env.MAIL_FROM);
}

function localAwsConfigEnv() {
  const { region, credentials } = localAwsConfig();
  return { AWS_REGION: region, AWS_ACCESS_KEY_ID: credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey };
}

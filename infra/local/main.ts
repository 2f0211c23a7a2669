/**
 * `npm start`: the whole service on loopback. PORT (3000), DYNAMODB_PORT (8000) and SQS_PORT (9324)
 * choose the ports; LOCAL_DATA_DIR keeps the database between runs (in memory by default).
 * Prints a banner for people and one `LOCAL_STACK_READY {json}` line for tools and tests.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { removeLocalStackInfo, writeLocalStackInfo } from './info-file';
import { startLocalStack } from './stack';

const port = z.coerce.number().int().min(0).max(65535);
const env = z
  .object({
    PORT: port.default(3000),
    DYNAMODB_PORT: port.default(8000),
    SQS_PORT: port.default(9324),
    LOCAL_DATA_DIR: z.string().min(1).optional(),
    // How often the sweep runs locally (an EventBridge rule every 5 minutes in AWS).
    LOCAL_SWEEP_INTERVAL_SECONDS: z.coerce.number().positive().default(60),
    // How often the checkout upkeep runs locally (an EventBridge rule every 5 minutes in AWS).
    LOCAL_CHECKOUT_UPKEEP_INTERVAL_SECONDS: z.coerce.number().positive().default(30),
  })
  .parse(process.env);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const stack = await startLocalStack({
  root,
  port: env.PORT,
  dynamodbPort: env.DYNAMODB_PORT,
  sqsPort: env.SQS_PORT,
  dataDir: env.LOCAL_DATA_DIR,
  sweepIntervalSeconds: env.LOCAL_SWEEP_INTERVAL_SECONDS,
  checkoutUpkeepIntervalSeconds: env.LOCAL_CHECKOUT_UPKEEP_INTERVAL_SECONDS,
});

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await stack.stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());

const lines = [
  '',
  `Payment gateway running at ${stack.baseUrl}`,
  `  DynamoDB Local ${stack.dynamodbEndpoint} (table ${stack.tableName}), SQS ${stack.sqsEndpoint}, Secrets Manager ${stack.secretsEndpoint}`,
  `  OpenAPI: ${stack.baseUrl}/developers/openapi.yaml`,
];
if ('created' in stack.demo) {
  const { account_id, public_key, secret_key } = stack.demo.created;
  lines.push(
    '',
    `Demo account ${account_id} (pix, boleto, card enabled):`,
    `  public key: ${public_key}`,
    `  secret key: ${secret_key}`,
    '',
    'Get a token:',
    `  curl -s -X POST -u '${public_key}:${secret_key}' ${stack.baseUrl}/api/auth`,
  );
} else {
  lines.push('', `Demo account ${stack.demo.existing} exists; new keys: npm run admin -- account rotate-keys --account ${stack.demo.existing}`);
}
lines.push('', `Panel mail (invites, reset links, sign-in notices) is kept under ${stack.mailDir}/ (the SES stand-in).`, 'Ctrl-C stops everything.', '');
console.log(lines.join('\n'));
const info = { ...stack, stop: undefined };
// The operator CLI finds the running stack's endpoints here (by PORT).
writeLocalStackInfo(root, env.PORT, info);
process.on('exit', () => removeLocalStackInfo(root, env.PORT));
console.log(`LOCAL_STACK_READY ${JSON.stringify(info)}`);

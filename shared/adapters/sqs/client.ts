import { SQSClient } from '@aws-sdk/client-sqs';
import { trimPerCallWork } from '../aws/per-call-work';

let client: SQSClient | undefined;

/**
 * The container's SQS client; locally the emulator's endpoint (AWS_ENDPOINT_URL_SQS) is set explicitly.
 * Rid of the SDK's per-call work nothing here uses (shared/adapters/aws/per-call-work.ts).
 */
export function getSqs(): SQSClient {
  client ??= trimPerCallWork(new SQSClient(process.env.AWS_ENDPOINT_URL_SQS ? { endpoint: process.env.AWS_ENDPOINT_URL_SQS } : {}));
  return client;
}

import { SQSClient } from '@aws-sdk/client-sqs';

let client: SQSClient | undefined;

/** The container's SQS client; locally the emulator's endpoint (AWS_ENDPOINT_URL_SQS) is set explicitly. */
export function getSqs(): SQSClient {
  client ??= new SQSClient(process.env.AWS_ENDPOINT_URL_SQS ? { endpoint: process.env.AWS_ENDPOINT_URL_SQS } : {});
  return client;
}

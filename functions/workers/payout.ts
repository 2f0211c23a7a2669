import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { BankUnavailableError } from '../../shared/bank/port';
import { getBank } from '../../shared/bank/simulated';
import { logger } from '../../shared/logger';
import { getSqs } from '../../shared/queue/sqs';
import { getRuntime } from '../../shared/runtime';
import type { KeyType } from '../../shared/schemas/withdraw';
import { keys } from '../../shared/storage/keys';
import { withdrawPixkey } from '../../shared/withdrawals/record';
import { GetCommand } from '@aws-sdk/lib-dynamodb';

/** Waits before asking the bank again: 5 s, 10 s, 20 s … up to 15 minutes, times PAYOUT_RETRY_SCALE. */
export function payoutRetryDelaySeconds(receiveCount: number, scale: number): number {
  return Math.max(0, Math.round(Math.min(900, 5 * 2 ** Math.max(0, receiveCount - 1)) * scale));
}

async function payOut(record: SQSRecord): Promise<void> {
  const runtime = getRuntime();
  const { reference } = JSON.parse(record.body) as { reference: string };
  const found = await runtime.db.send(new GetCommand({ TableName: runtime.config.tableName, Key: keys.withdraw(reference), ConsistentRead: true }));
  const item = found.Item;
  if (!item || item.status !== 'PENDING') return;
  await getBank().requestPayout({
    reference,
    amountCents: Number(item.amountCents),
    pixkey: withdrawPixkey(item, (await runtime.serviceKeys()).personalData),
    keytype: item.keytype as KeyType,
    description: typeof item.description === 'string' ? item.description : undefined,
  });
  await runtime.db.send(
    new UpdateCommand({
      TableName: runtime.config.tableName,
      Key: keys.withdraw(reference),
      UpdateExpression: 'SET bankRequestedAt = if_not_exists(bankRequestedAt, :now)',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':now': new Date().toISOString() },
    }),
  );
  logger.info('payout requested from the bank', { reference });
}

/**
 * The payout queue's consumer: asks the bank to pay each withdrawal, with the withdraw reference as
 * the bank's idempotency key. A bank failure leaves the withdraw PENDING (its money stays reserved)
 * and the message comes back after a growing wait; after maxReceiveCount it goes to the DLQ.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      await payOut(record);
    } catch (err) {
      const receiveCount = Number(record.attributes.ApproximateReceiveCount ?? '1');
      logger.warn('payout not requested; will retry', {
        messageId: record.messageId,
        receiveCount,
        error: err instanceof Error ? err.message : 'unknown',
        bankDown: err instanceof BankUnavailableError,
      });
      failures.push({ itemIdentifier: record.messageId });
      const queueUrl = getRuntime().config.payouts.queueUrl;
      if (queueUrl) {
        await getSqs()
          .send(
            new ChangeMessageVisibilityCommand({
              QueueUrl: queueUrl,
              ReceiptHandle: record.receiptHandle,
              VisibilityTimeout: payoutRetryDelaySeconds(receiveCount, getRuntime().config.payouts.retryScale),
            }),
          )
          .catch(() => undefined);
      }
    }
  }
  return { batchItemFailures: failures };
}

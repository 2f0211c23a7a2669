import { Duration, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueDef, StreamConsumerDef } from '../../shared/queues';
import { ApiFunction } from './api-function';

/** A queue of the service with its DLQ (both SSL-only, SQS-managed encryption) and a DLQ-depth alarm. */
export class ServiceQueue extends Construct {
  readonly queue: sqs.Queue;
  readonly dlq: sqs.Queue;
  readonly alarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, def: QueueDef) {
    super(scope, id);
    this.dlq = new sqs.Queue(this, 'Dlq', { retentionPeriod: Duration.days(14), enforceSSL: true, encryption: sqs.QueueEncryption.SQS_MANAGED });
    Validations.of(this.dlq).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This queue is itself a dead-letter queue.' });
    this.queue = new sqs.Queue(this, 'Queue', {
      visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
      enforceSSL: true,
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      deadLetterQueue: { queue: this.dlq, maxReceiveCount: def.maxReceiveCount },
    });
    this.alarm = new cloudwatch.Alarm(this, 'DlqDepth', {
      alarmDescription: `Messages of the ${def.id} queue that could not be processed are waiting in its DLQ: inspect, fix, redrive.`,
      metric: this.dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
}

/** A queue consumer: batches with ReportBatchItemFailures, so one failed message does not retry the rest. */
export function consumeQueue(fn: ApiFunction, queue: ServiceQueue, def: QueueDef): void {
  fn.fn.addEventSource(new SqsEventSource(queue.queue, { batchSize: def.batchSize, reportBatchItemFailures: true }));
}

/**
 * A stream consumer that only sees INSERTs of the item types it names (a Lambda event filter), retried
 * with bisection; batches that still fail go to an SQS dead-letter queue (with its alarm).
 */
export function consumeStream(scope: Construct, fn: ApiFunction, table: dynamodb.ITable, def: StreamConsumerDef): ServiceQueue {
  const failures = new ServiceQueue(scope, `${def.id}Failures`, {
    id: `${def.id}-failures`,
    handler: '',
    visibilityTimeoutSeconds: 30,
    maxReceiveCount: 5,
    urlEnv: '',
    batchSize: 1,
    workerTimeoutSeconds: 10,
  });
  fn.fn.addEventSource(
    new DynamoEventSource(table, {
      startingPosition: lambda.StartingPosition.TRIM_HORIZON,
      batchSize: 100,
      bisectBatchOnError: true,
      retryAttempts: 10,
      onFailure: new SqsDlq(failures.queue),
      filters: [
        lambda.FilterCriteria.filter({
          eventName: lambda.FilterRule.isEqual('INSERT'),
          dynamodb: { NewImage: { type: { S: lambda.FilterRule.or(...def.insertsOfTypes) } } },
        }),
      ],
    }),
  );
  return failures;
}

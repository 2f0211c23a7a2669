import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '../../shared/platform/metrics';
import { MESSAGE_RETENTION_DAYS, type QueueDef, type StreamConsumerDef, type StreamMappingDef, VISIBILITY_PER_TIMEOUT } from '../../shared/platform/queues';
import type { ApiFunction } from './api-function';

/** Every queue of the stack keeps its messages this long (SQS's maximum). */
export const MESSAGE_RETENTION = Duration.days(MESSAGE_RETENTION_DAYS);

/**
 * The stream forwarder is paged when its oldest record waiting is this old. Forwarding normally
 * takes well under a second, so five minutes means it is stuck (failing, throttled); it is far below
 * the hour after which records are given up on (StreamConsumerDef.maxRecordAgeSeconds) and the 24 h
 * after which the stream drops them, so on-call hears of it while nothing is lost yet.
 */
export const ITERATOR_AGE_ALARM = Duration.minutes(5);

/**
 * An SQS queue as every queue of the stack: SSL-only, SQS-managed encryption, 14 days' retention, and
 * kept when the stack is deleted or the queue replaced (its pending messages are money events:
 * payouts, webhook attempts, failure records); a retained queue is deleted by hand once drained.
 */
function plainQueue(scope: Construct, id: string, props: sqs.QueueProps = {}): sqs.Queue {
  return new sqs.Queue(scope, id, {
    ...props,
    retentionPeriod: MESSAGE_RETENTION,
    enforceSSL: true,
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    removalPolicy: RemovalPolicy.RETAIN,
  });
}

/** An alarm at one visible message on a queue: anything there needs a person. */
function depthAlarm(scope: Construct, id: string, queue: sqs.IQueue, description: string): cloudwatch.Alarm {
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription: description,
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: cloudwatch.Stats.MAXIMUM }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

/** A queue of the service with its DLQ and a DLQ-depth alarm. */
export class ServiceQueue extends Construct {
  readonly queue: sqs.Queue;
  readonly dlq: sqs.Queue;
  readonly alarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, def: QueueDef) {
    super(scope, id);
    if (def.visibilityTimeoutSeconds < VISIBILITY_PER_TIMEOUT * def.workerTimeoutSeconds) {
      throw new Error(
        `Queue ${def.id}: visibility timeout ${def.visibilityTimeoutSeconds} s is below ${VISIBILITY_PER_TIMEOUT} × its consumer's ${def.workerTimeoutSeconds} s`,
      );
    }
    this.dlq = plainQueue(this, 'Dlq');
    Validations.of(this.dlq).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This queue is itself a dead-letter queue.' });
    this.queue = plainQueue(this, 'Queue', {
      visibilityTimeout: Duration.seconds(def.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.dlq, maxReceiveCount: def.maxReceiveCount },
    });
    this.alarm = depthAlarm(
      this,
      'DlqDepth',
      this.dlq,
      `Messages of the ${def.id} queue that could not be processed are waiting in its DLQ: inspect, fix, redrive.`,
    );
  }
}

/**
 * A queue consumer: batches with ReportBatchItemFailures (one failed message does not retry the rest)
 * and at most `maxConcurrency` invocations at once. It may also send to its own queue when it does
 * (`sendsToOwnQueue`: a retry is a new message with a delay), and to its DLQ when it moves messages
 * there itself (`dlqUrlEnv`). Its
 * function's RecursiveLoop is the queue's `recursiveLoop` (given to the ApiFunction when it is created);
 * the returned alarm pages on any invocation Lambda's recursive loop detection stopped.
 */
export function consumeQueue(scope: Construct, fn: ApiFunction, queue: ServiceQueue, def: QueueDef): cloudwatch.Alarm {
  fn.fn.addEventSource(new SqsEventSource(queue.queue, { batchSize: def.batchSize, reportBatchItemFailures: true, maxConcurrency: def.maxConcurrency }));
  if (def.sendsToOwnQueue) queue.queue.grantSendMessages(fn.role);
  if (def.dlqUrlEnv) queue.dlq.grantSendMessages(fn.role);
  return recursionDropsAlarm(scope, `${def.id}RecursiveInvocationsDropped`, fn, def);
}

/**
 * Any invocation of a queue consumer that Lambda's recursive loop detection stopped (the function's
 * `RecursiveInvocationsDropped`, AWS/Lambda): its message went to the DLQ unprocessed. With
 * RecursiveLoop Allow it stays at 0; a data point means the setting was lost (or a new loop formed).
 */
export function recursionDropsAlarm(scope: Construct, id: string, fn: ApiFunction, def: QueueDef): cloudwatch.Alarm {
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription: `Lambda stopped invocations of the ${def.id} queue's consumer as a recursive loop (after 16 in one chain): their messages went to the ${def.id} DLQ unprocessed (withdrawals stay PENDING, webhook attempts stop). Check the function's RecursiveLoop (must be ${def.recursiveLoop}: shared/platform/queues.ts), then redrive the DLQ (npm run admin -- dlq redrive --queue ${def.id}).`,
    metric: new cloudwatch.Metric({
      namespace: 'AWS/Lambda',
      metricName: 'RecursiveInvocationsDropped',
      dimensionsMap: { FunctionName: fn.fn.functionName },
      period: Duration.minutes(5),
      statistic: cloudwatch.Stats.SUM,
    }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

/**
 * Where the stream mapping puts what it gives up on: a plain queue (no consumer, so no DLQ behind it)
 * alarmed on its own depth. Lambda writes only a failure record there (shard, first and last sequence
 * numbers and times, not the items); `npm run admin -- stream redrive` reads the items back from the
 * table and forwards them.
 */
export class StreamFailureQueue extends Construct {
  readonly queue: sqs.Queue;
  readonly alarm: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, def: StreamConsumerDef) {
    super(scope, id);
    this.queue = plainQueue(this, 'Queue');
    Validations.of(this.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is the stream mapping's on-failure destination: nothing consumes it automatically, so a DLQ behind it would never receive anything; it is alarmed on its own depth and drained by the operator's stream redrive.",
    });
    this.alarm = depthAlarm(
      this,
      'Depth',
      this.queue,
      `The ${def.id} gave up on table stream records (withdrawals may sit PENDING unpaid, webhooks unsent): run npm run admin -- stream redrive.`,
    );
  }
}

/** The alarms of a stream consumer besides its failure queue's. */
export type StreamAlarms = { errors: cloudwatch.Alarm; iteratorAge: cloudwatch.Alarm };

/**
 * A stream consumer that only sees INSERTs of the item types it names (a Lambda event filter). A
 * failing batch is bisected and retried from the first record the function reports failed
 * (ReportBatchItemFailures: it answers `{batchItemFailures: [{itemIdentifier: <sequence number>}]}`),
 * at most `retryAttempts` times and for records younger than `maxRecordAgeSeconds`; what is given up
 * on goes to the failure queue.
 */
export function consumeStream(scope: Construct, fn: ApiFunction, table: dynamodb.ITable, def: StreamMappingDef, failures: StreamFailureQueue): StreamAlarms {
  fn.fn.addEventSource(
    new DynamoEventSource(table, {
      startingPosition: lambda.StartingPosition.TRIM_HORIZON,
      batchSize: def.batchSize,
      bisectBatchOnError: true,
      reportBatchItemFailures: true,
      retryAttempts: def.retryAttempts,
      maxRecordAge: Duration.seconds(def.maxRecordAgeSeconds),
      onFailure: new SqsDlq(failures.queue),
      filters: [
        lambda.FilterCriteria.filter({
          eventName: lambda.FilterRule.isEqual('INSERT'),
          dynamodb: { NewImage: { type: { S: lambda.FilterRule.or(...def.insertsOfTypes) } } },
        }),
      ],
    }),
  );
  const errors = new cloudwatch.Alarm(scope, `${def.id}Errors`, {
    alarmDescription: `The ${def.id} has been failing for 10 minutes (each failure is retried at once; a passing one does not page): check its logs before records are given up on.`,
    metric: fn.fn.metricErrors({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
    threshold: 1,
    evaluationPeriods: 2,
    datapointsToAlarm: 2,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  const iteratorAge = new cloudwatch.Alarm(scope, `${def.id}IteratorAge`, {
    alarmDescription: `The ${def.id} is more than ${ITERATOR_AGE_ALARM.toMinutes()} minutes behind the table stream: withdrawals and webhooks are delayed; records older than ${def.maxRecordAgeSeconds / 60} minutes are given up on.`,
    metric: fn.fn.metric('IteratorAge', { period: Duration.minutes(1), statistic: cloudwatch.Stats.MAXIMUM }),
    threshold: ITERATOR_AGE_ALARM.toMilliseconds(),
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  return { errors, iteratorAge };
}

/**
 * Runs a function every `everyMinutes` minutes (an EventBridge rule). EventBridge retries a delivery
 * Lambda refused (throttled) twice; a run that fails inside the function is Lambda's asynchronous
 * retry, and the next run comes anyway.
 */
export function runOnSchedule(scope: Construct, id: string, fn: ApiFunction, everyMinutes: number, description: string): events.Rule {
  return new events.Rule(scope, id, {
    description,
    schedule: events.Schedule.rate(Duration.minutes(everyMinutes)),
    targets: [new targets.LambdaFunction(fn.fn, { retryAttempts: 2 })],
  });
}

/** How many periods of errors in a row page: by default two of 10 minutes (a function run every few minutes). */
export type ErrorsWindow = { period: Duration; periodsInARow: number };

/**
 * A scheduled function failing in two 10-minute periods in a row: page (one failed run that the next
 * one fixes does not). A function run once a day has no next run to fix it, and Lambda's two retries
 * of a quick failure land within a few minutes (often one period): it passes `{ period, periodsInARow: 1 }`.
 */
export function scheduledErrorsAlarm(
  scope: Construct,
  id: string,
  fn: ApiFunction,
  description: string,
  window: ErrorsWindow = { period: Duration.minutes(10), periodsInARow: 2 },
): cloudwatch.Alarm {
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription: description,
    metric: fn.fn.metricErrors({ period: window.period, statistic: cloudwatch.Stats.SUM }),
    threshold: 1,
    evaluationPeriods: window.periodsInARow,
    datapointsToAlarm: window.periodsInARow,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

/**
 * A count a daily job publishes (embedded metric format, namespace PaymentGateway) above zero over one
 * day: the Maximum of the day's data points (the reconciliation publishes one per page). A day with no
 * data point is not breaching (issue 25: a fresh deploy must not be in ALARM before its first run); a
 * job that stops running is seen by its errors alarm, its schedule's FailedInvocations alarm and its
 * queue's DLQ and recursion alarms.
 */
export function dailyCountAlarm(scope: Construct, id: string, metricName: string, description: string): cloudwatch.Alarm {
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription: description,
    metric: new cloudwatch.Metric({ namespace: METRICS_NAMESPACE, metricName, period: Duration.days(1), statistic: cloudwatch.Stats.MAXIMUM }),
    threshold: 0,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

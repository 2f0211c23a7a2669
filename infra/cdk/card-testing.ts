import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { CARD_DECLINED_MESSAGE } from '../../shared/domain/card-fingerprint';

/** The per-merchant decline alarm (issue 31): one merchant's declined card attempts in this window… */
export const CARD_DECLINES_WINDOW = Duration.minutes(5);
/** …at or above this count (a card-testing burst; a merchant's normal declines stay far below it). */
export const CARD_DECLINES_PER_MERCHANT_THRESHOLD = 20;

/**
 * Declines per merchant, from the card routes' logs: a Contributor Insights rule counts the
 * `card declined` lines by `accountId` (a metric per merchant would be one custom metric each), and an
 * alarm fires when the top merchant's count in CARD_DECLINES_WINDOW reaches the threshold: someone is
 * testing cards on that merchant's checkout or keys. The caps stop the attempts; this tells on-call.
 */
export function cardDeclinesByMerchant(
  scope: Construct,
  id: string,
  logGroups: readonly logs.ILogGroup[],
): { rule: cloudwatch.CfnInsightRule; alarm: cloudwatch.Alarm } {
  const stack = Stack.of(scope);
  const ruleName = `${stack.stackName}-card-declines-by-merchant`;
  const rule = new cloudwatch.CfnInsightRule(scope, `${id}Rule`, {
    ruleName,
    ruleState: 'ENABLED',
    ruleBody: stack.toJsonString({
      Schema: { Name: 'CloudWatchLogRule', Version: 1 },
      LogGroupNames: logGroups.map((group) => group.logGroupName),
      LogFormat: 'JSON',
      Contribution: { Keys: ['$.accountId'], Filters: [{ Match: '$.message', In: [CARD_DECLINED_MESSAGE] }] },
      AggregateOn: 'Count',
    }),
  });
  const alarm = new cloudwatch.Alarm(scope, id, {
    alarmDescription: `One merchant had ${CARD_DECLINES_PER_MERCHANT_THRESHOLD} or more declined card attempts in ${CARD_DECLINES_WINDOW.toMinutes()} minutes: card testing on its hosted checkout (or its API keys). The caps refuse further attempts (CARD_DECLINES_PER_*); find the merchant in Contributor Insights (${ruleName}), look at its 'card declined' and 'card attempt refused' lines, and tell the merchant (signed forms, callback origins, rotate its keys if the API route is used).`,
    metric: new cloudwatch.MathExpression({
      expression: `INSIGHT_RULE_METRIC("${ruleName}", "MaxContributorValue")`,
      usingMetrics: {},
      period: CARD_DECLINES_WINDOW,
      label: 'declined card attempts of the top merchant',
    }),
    threshold: CARD_DECLINES_PER_MERCHANT_THRESHOLD,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  alarm.node.addDependency(rule);
  return { rule, alarm };
}

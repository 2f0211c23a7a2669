/**
 * A CloudWatch embedded metric format (EMF) line: printed to a Lambda's log, it becomes a metric
 * without an API call (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html).
 */
export const METRICS_NAMESPACE = 'PaymentGateway';

export function emfLine(name: string, value: number, unit: 'Count' | 'None', at: Date, dimensions: Record<string, string> = {}): string {
  return JSON.stringify({
    _aws: {
      Timestamp: at.getTime(),
      CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [Object.keys(dimensions)], Metrics: [{ Name: name, Unit: unit }] }],
    },
    ...dimensions,
    [name]: value,
  });
}

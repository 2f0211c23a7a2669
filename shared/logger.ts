import { Logger } from '@aws-lambda-powertools/logger';

/**
 * Structured JSON logs. Request and response bodies, headers, keys, tokens, card data and taxpayer
 * documents are never passed to it: log identifiers, routes, statuses and timings only.
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'payment-gateway' });

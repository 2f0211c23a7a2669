import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { requireCaller } from '../../shared/domain/auth/caller';
import { BadRequestError } from '../../shared/domain/errors';
import { httpHandler } from '../../shared/http/pipeline';
import { defineRoute } from '../../shared/http/route';

/**
 * A creation route that exists only in tests and the bench: it exercises the shared pipeline
 * (auth, rate limit, body parsing, validation, idempotency, one-transaction commit) the way the
 * real creation routes do, writing one PROBE item per call.
 */
export const probeRoute = defineRoute({
  id: 'ProbeCreate',
  method: 'POST',
  path: '/probe/items',
  handler: 'test/support/probe-route.ts',
  auth: 'bearer',
  rateLimit: 'account',
  access: 'write',
  idempotency: 'optional',
  tag: 'Probe',
  summary: 'Test-only creation',
  request: {
    body: z.object({
      name: z.string().min(1).max(50),
      delay_ms: z.number().int().min(0).max(5000).optional(),
      outcome: z.enum(['ok', 'refuse', 'crash']).optional(),
    }),
  },
  responses: { 200: { description: 'Created' } },
});

export const handler = httpHandler(probeRoute, async ({ body, caller, runtime, now }) => {
  const { accountId } = requireCaller(caller);
  if (body.delay_ms) await sleep(body.delay_ms);
  if (body.outcome === 'refuse') throw new BadRequestError('Refused by the probe');
  if (body.outcome === 'crash') throw new Error('probe crash with secret detail /var/task/index.js:12');
  const id = randomUUID();
  return {
    status: 200,
    body: { item: { id, name: body.name } },
    writes: [
      {
        Put: {
          TableName: runtime.config.tableName,
          Item: { PK: `PROBE#${accountId}`, SK: `ITEM#${id}`, type: 'probe', name: body.name, createdAt: now.toISOString() },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ],
  };
});

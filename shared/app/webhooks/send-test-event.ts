import type { Change, OutboxEvent } from '../../domain/changes';
import { ConflictError } from '../../domain/errors';

/** POST /api/webhook/test: one ping event through the same pipeline as every event; no URL configured → 409. */
export function sendTestEvent(
  ports: { newEvent: (type: string, data: Record<string, unknown>, now: Date) => OutboxEvent },
  request: { accountId: string; webhookConfigured: boolean; now: Date },
): { answer: { event_id: string; status: 'queued' }; changes: Change[] } {
  if (!request.webhookConfigured) throw new ConflictError('No webhook is configured: PUT /api/webhook first', 'webhook_not_configured');
  const event = ports.newEvent('ping', { message: 'Test event from the payment gateway: your endpoint is reachable.' }, request.now);
  return { answer: { event_id: event.id, status: 'queued' }, changes: [{ kind: 'event.recorded', accountId: request.accountId, event }] };
}

import { randomString } from './ids';
import { API_VERSION } from '../domain/api-version';
import type { OutboxEvent } from '../domain/changes';

/** An outgoing webhook event (spec 6.2): written in the same transaction as the change it reports. */
export type { OutboxEvent };

export function newEvent(type: string, data: Record<string, unknown>, now: Date): OutboxEvent {
  return { id: `evt_${randomString(24)}`, type, created: Math.floor(now.getTime() / 1000), api_version: API_VERSION, data };
}

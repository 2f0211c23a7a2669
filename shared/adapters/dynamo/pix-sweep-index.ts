import { randomInt } from 'node:crypto';
import { SWEEP_INDEX } from './sweep-index';

/**
 * The PENDING Pix charges of a provider that can be read back (API Pix), in the sparse GSI2 under
 * partitions of their own (`PIXSWEEP#k`, never the stream sweep's `SWEEP#k`), sorted by creation time:
 * the Pix sweep looks up those older than APIPIX_SWEEP_AFTER_MINUTES whose callback never came. An
 * invoice leaves the index with its first move (the status update removes the attributes), or when
 * the sweep gives up on it a day after its due date.
 */
export const PIX_SWEEP_INDEX = SWEEP_INDEX;
export const PIX_SWEEP_SHARDS = 4;
export const PIX_SWEEP_PREFIX = 'PIXSWEEP#';

export const pixSweepPartitions: readonly string[] = Array.from({ length: PIX_SWEEP_SHARDS }, (_, shard) => `${PIX_SWEEP_PREFIX}${shard}`);

export function pixSweepAttributes(createdAtIso: string, reference: string): { GSI2PK: string; GSI2SK: string } {
  return { GSI2PK: `${PIX_SWEEP_PREFIX}${randomInt(PIX_SWEEP_SHARDS)}`, GSI2SK: `${createdAtIso}#${reference}` };
}

/** Whether an invoice item is in the Pix sweep's index (its first move takes it out). */
export function inPixSweep(item: Record<string, unknown>): boolean {
  return typeof item.GSI2PK === 'string' && item.GSI2PK.startsWith(PIX_SWEEP_PREFIX);
}

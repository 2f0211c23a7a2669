import { randomInt } from 'node:crypto';
import { brazilDayBounds } from '../../domain/brazil-dates';
import { lastPayableDate } from '../../domain/bolepix';
import type { Invoice } from '../../domain/invoice';
import { SWEEP_INDEX } from './sweep-index';

/**
 * The boletos whose rails the rails upkeep keeps (shared/app/invoices/rail-upkeep.ts): BolePix and
 * boletos with late-payment rules, in the sparse GSI2 under partitions of their own (`RAILS#k`), sorted
 * by when they next need it: a PENDING one at the end of its last payable day (it expires then); after
 * a move to PAID or CANCELED at once (`RAILS_NOW`: the rails left open are closed at their providers).
 * The upkeep takes an invoice out once nothing is left to do.
 */
export const RAIL_UPKEEP_INDEX = SWEEP_INDEX;
export const RAIL_UPKEEP_SHARDS = 4;
export const RAIL_UPKEEP_PREFIX = 'RAILS#';

/** A sort key below every ISO time: due at once. */
const RAILS_NOW = '0000-00-00T00:00:00.000Z';

export const railUpkeepPartitions: readonly string[] = Array.from({ length: RAIL_UPKEEP_SHARDS }, (_, shard) => `${RAIL_UPKEEP_PREFIX}${shard}`);

const partition = () => `${RAIL_UPKEEP_PREFIX}${randomInt(RAIL_UPKEEP_SHARDS)}`;

/** A new invoice's place: due when its payment window ends (the end of its last payable day, Brazil's time). */
export function railUpkeepAttributes(invoice: Pick<Invoice, 'dueDate' | 'late' | 'reference'>): { GSI2PK: string; GSI2SK: string } {
  const expires = new Date(brazilDayBounds(lastPayableDate(invoice)).endMs + 1).toISOString();
  return { GSI2PK: partition(), GSI2SK: `${expires}#${invoice.reference}` };
}

/** After a move to PAID or CANCELED: due at once (its rails left open are closed). */
export function railUpkeepNow(reference: string): { GSI2PK: string; GSI2SK: string } {
  return { GSI2PK: partition(), GSI2SK: `${RAILS_NOW}#${reference}` };
}

/** Whether an invoice item is in the rails upkeep's index. */
export function inRailUpkeep(item: Record<string, unknown>): boolean {
  return typeof item.GSI2PK === 'string' && item.GSI2PK.startsWith(RAIL_UPKEEP_PREFIX);
}

import { randomInt } from 'node:crypto';

/**
 * The sweep's index (GSI2, sparse): every item the stream must forward (an outbox event, a new
 * withdraw) is written with GSI2PK/GSI2SK, and the forwarder removes them once its message is on the
 * queue. What is still in the index after a few minutes was never forwarded (a stream batch that
 * Lambda gave up on, records expired after 24 h): the sweep and `stream redrive` forward it from the
 * table. Ten partitions spread the index's writes (one partition takes about 1,000 writes a second).
 */
export const SWEEP_INDEX = 'GSI2';
export const SWEEP_SHARDS = 10;

export function sweepPartition(shard: number): string {
  return `SWEEP#${shard}`;
}

export const sweepPartitions: readonly string[] = Array.from({ length: SWEEP_SHARDS }, (_, shard) => sweepPartition(shard));

/** The index attributes of an item to forward: a random partition, sorted by creation time. */
export function sweepIndexAttributes(createdAtIso: string, pk: string): { GSI2PK: string; GSI2SK: string } {
  return { GSI2PK: sweepPartition(randomInt(SWEEP_SHARDS)), GSI2SK: `${createdAtIso}#${pk}` };
}

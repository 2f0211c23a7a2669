import {
  afterRelease,
  afterWrite,
  type Slots,
  slotLogKey,
  type SlotScope,
  type SlotWrite,
  takeInRounds,
  type TakeResult,
  writeAdmits,
} from '../../shared/domain/attempt-slots';
import { ContentionError } from '../../shared/domain/errors';
import type { AttemptSlots } from '../../shared/ports/attempt-slots';

/** A store of slot logs in memory with the table's conditional semantics: a round's writes apply all together, or none (which ones failed, with their old logs). */
export class MemorySlotStore {
  readonly logs = new Map<string, Slots>();

  /** One round: every write's condition against the logs as they are now, then all applied, or none. */
  round(
    scopes: readonly SlotScope[],
    writes: readonly SlotWrite[],
    slotId: string,
    nowMs: number,
  ): { ok: true } | { ok: false; failure: Map<number, Slots | undefined> } {
    const failure = new Map<number, Slots | undefined>();
    scopes.forEach((scope, i) => {
      const write = writes[i];
      const stored = this.logs.get(slotLogKey(scope.log));
      if (!write || !writeAdmits(stored, write, slotId)) failure.set(i, stored);
    });
    if (failure.size > 0) return { ok: false, failure };
    scopes.forEach((scope, i) => {
      const key = slotLogKey(scope.log);
      this.logs.set(key, afterWrite(this.logs.get(key), writes[i] as SlotWrite, slotId, nowMs));
    });
    return { ok: true };
  }

  release(keys: readonly string[], slotId: string): void {
    for (const key of keys) {
      const after = afterRelease(this.logs.get(key), slotId);
      if (after) this.logs.set(key, after);
    }
  }
}

/** The port over a MemorySlotStore: the same rounds as shared/adapters/dynamo/attempt-slots.ts. */
export function memoryAttemptSlots(store = new MemorySlotStore()): AttemptSlots & { store: MemorySlotStore } {
  return {
    store,
    async take(scopes, slotId, now): Promise<TakeResult> {
      const nowMs = now.getTime();
      const taken = await takeInRounds(scopes, slotId, nowMs, async (writes) => store.round(scopes, writes, slotId, nowMs));
      if (!taken) throw new ContentionError();
      return taken;
    },
    async release(ticket) {
      store.release(ticket.logs.map(slotLogKey), ticket.slotId);
    },
  };
}

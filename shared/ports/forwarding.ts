/** An item to forward: its key (to leave the sweep's index once sent), its queue and its message. */
export type Forwardable = { PK: string; SK: string; queue: 'payouts' | 'webhooks' | 'mail'; message: object };

/** The stream sweep's index of items not forwarded yet (shared/adapters/dynamo/forward-index.ts). */
export interface ForwardIndex {
  /** Items still waiting to be forwarded, created between `fromIso` and `toIso` (ISO times sort as text), at most `maxItems`. */
  unforwarded(fromIso: string, toIso: string, maxItems: number): Promise<Forwardable[]>;
  /** A forwarded item leaves the index (a failure only means it is forwarded once more: harmless). */
  leave(item: Forwardable): Promise<void>;
}

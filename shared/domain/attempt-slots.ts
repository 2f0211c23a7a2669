/**
 * Attempt slots (issue 43): the one shape of every limit that must hold under a burst. A limit of L
 * attempts per window keeps a slot log: a map {slotId: epoch ms taken} of the attempts that count.
 * An attempt TAKES a slot before its check (the provider asked, a password compared, a mail sent) in
 * one conditional write that admits or refuses, so N concurrent attempts admit at most L; it RELEASES
 * its slot when the attempt turns out not to count (an approved card, a right password), and keeps
 * it when it counts (a decline, a wrong password) or when nobody knows (a lost answer).
 *
 * Pure rules, values in, values out: which entries have left the window, the write one scope needs
 * given what is known of its log (planWrite), what the stored condition admits (writeAdmits, the
 * reference semantics of the DynamoDB expression in shared/adapters/dynamo/attempt-slots.ts), what a
 * failed condition's old log says (judgeFailure), and Retry-After. The store's only condition is
 * "own slot already there, or fewer than `cap` entries with these provably-left entries still as read":
 * entries are never trusted to have left unless the store still holds them as read, so no round can
 * admit past the limit, whatever the interleaving (test/shared/domain/attempt-slots.test.ts).
 */

/**
 * Where a log's entries leave it:
 * - sliding: `ms` after each was taken (card caps: an hour);
 * - fixed: when the epoch-aligned window of `ms` they were taken in ends (sign-in: 15 min);
 * - lifetime: never (a checkout's card attempts); the log is forgotten `keepMs` after its last take.
 */
export type SlotWindow = { kind: 'sliding'; ms: number } | { kind: 'fixed'; ms: number } | { kind: 'lifetime'; keepMs: number };

/**
 * The logs there are (each kind has its own item key prefix, so IAM grants each function only its
 * own: shared/adapters/dynamo/attempt-slots.ts maps a kind to its key). A new limit adds a kind here
 * and a key there.
 */
export type SlotLogKind =
  | 'card'
  | 'merchant'
  | 'checkout'
  /** The merchant panel (shared/domain/panel/sign-in-limits.ts). */
  | 'signin-email'
  | 'signin-address'
  | 'step-up'
  | 'reset-mail'
  | 'panel-invite';

/** One slot log: its kind and the id it counts for (a card fingerprint, an account id, a checkout reference). */
export type SlotLog = { kind: SlotLogKind; id: string };

/** A limit over one log: at most `limit` live slots in `window`. */
export type SlotScope = { log: SlotLog; limit: number; window: SlotWindow };

/** A slot log as stored: slot id → epoch ms when it was taken. */
export type Slots = Readonly<Record<string, number>>;

/** What a take admitted: the slot and the logs it holds it in, for release(). */
export type SlotTicket = { slotId: string; logs: SlotLog[] };

/**
 * A take's answer: admitted in every scope (all or nothing), or refused by a full log (the first one
 * found full) with the whole seconds until a slot frees in every full log found (undefined: never, a
 * lifetime log).
 */
export type TakeResult = { admitted: true; ticket: SlotTicket } | { admitted: false; refusedBy: SlotLog; retryAfterSeconds: number | undefined };

/** The most rounds a take tries (each lost only to another writer's change of the same logs); then 503. */
export const MAX_TAKE_ROUNDS = 8;

/** A log's identity as one string (maps, tests). */
export function slotLogKey(log: SlotLog): string {
  return `${log.kind}#${log.id}`;
}

/** When an entry taken at `takenAtMs` leaves the window (epoch ms), or undefined: never. */
export function leavesAt(takenAtMs: number, window: SlotWindow): number | undefined {
  switch (window.kind) {
    case 'sliding':
      return takenAtMs + window.ms;
    case 'fixed':
      return (Math.floor(takenAtMs / window.ms) + 1) * window.ms;
    case 'lifetime':
      return undefined;
  }
}

/** Whether an entry taken at `takenAtMs` has left the window at `nowMs`. */
export function hasLeft(takenAtMs: number, nowMs: number, window: SlotWindow): boolean {
  const at = leavesAt(takenAtMs, window);
  return at !== undefined && at <= nowMs;
}

/** The entries still in the window at `nowMs`. */
export function liveSlots(slots: Slots, nowMs: number, window: SlotWindow): Record<string, number> {
  return Object.fromEntries(Object.entries(slots).filter(([, at]) => !hasLeft(at, nowMs, window)));
}

/** The entries that have left the window at `nowMs` (they no longer count; the store may drop them). */
export function leftSlots(slots: Slots, nowMs: number, window: SlotWindow): Record<string, number> {
  return Object.fromEntries(Object.entries(slots).filter(([, at]) => hasLeft(at, nowMs, window)));
}

/**
 * Whole seconds until enough live entries leave for one more take (at least 1), or undefined when
 * they never do (a lifetime log). 0 when a take would be admitted now.
 */
export function retryAfterSeconds(slots: Slots, limit: number, nowMs: number, window: SlotWindow): number | undefined {
  const live = Object.values(liveSlots(slots, nowMs, window));
  const must = live.length - limit + 1;
  if (must <= 0) return 0;
  const leaving = live.map((at) => leavesAt(at, window));
  if (leaving.some((at) => at === undefined)) return undefined;
  const sorted = (leaving as number[]).sort((a, b) => a - b);
  const at = sorted[must - 1] ?? nowMs;
  return Math.max(1, Math.ceil((at - nowMs) / 1000));
}

/** When a log last taken at `nowMs` may be forgotten (its item's TTL, epoch ms): every entry has left by then. */
export function forgetAt(nowMs: number, window: SlotWindow): number {
  return window.kind === 'lifetime' ? nowMs + window.keepMs : (leavesAt(nowMs, window) ?? nowMs);
}

/** What is known of a log before a round: nothing yet (assume it exists), absent (no item or no map), or as a failed condition returned it. */
export type KnownLog = { state: 'unknown' } | { state: 'missing' } | { state: 'read'; slots: Slots };

/**
 * One scope's write in a round:
 * - create: the log with this slot alone, on condition that there is no log yet;
 * - add: this slot (kept at its first time when already there), dropping `prune` (entries read as left),
 *   on condition that the slot is already there, or that the log holds fewer than `cap` entries
 *   (the limit plus the pruned ones) and every pruned entry still as read.
 */
export type SlotWrite = { kind: 'create' } | { kind: 'add'; prune: Record<string, number>; cap: number };

/** The write a scope needs, from what is known of its log. */
export function planWrite(known: KnownLog, scope: SlotScope, slotId: string, nowMs: number): SlotWrite {
  if (known.state === 'missing') return { kind: 'create' };
  if (known.state === 'unknown') return { kind: 'add', prune: {}, cap: scope.limit };
  const prune = Object.fromEntries(Object.entries(leftSlots(known.slots, nowMs, scope.window)).filter(([id]) => id !== slotId));
  return { kind: 'add', prune, cap: scope.limit + Object.keys(prune).length };
}

/** Whether the store admits a write against the log it holds (undefined: none): the condition of the stored expression. */
export function writeAdmits(stored: Slots | undefined, write: SlotWrite, slotId: string): boolean {
  if (write.kind === 'create') return stored === undefined;
  if (stored === undefined) return false;
  if (Object.hasOwn(stored, slotId)) return true;
  return Object.keys(stored).length < write.cap && Object.entries(write.prune).every(([id, at]) => stored[id] === at);
}

/** The log after an admitted write: the stored expression's update. */
export function afterWrite(stored: Slots | undefined, write: SlotWrite, slotId: string, nowMs: number): Slots {
  if (write.kind === 'create' || stored === undefined) return { [slotId]: nowMs };
  const kept = Object.fromEntries(Object.entries(stored).filter(([id]) => !Object.hasOwn(write.prune, id)));
  return { ...kept, [slotId]: stored[slotId] ?? nowMs };
}

/** The log after a release of `slotId` (no log stays none). */
export function afterRelease(stored: Slots | undefined, slotId: string): Slots | undefined {
  if (stored === undefined) return undefined;
  return Object.fromEntries(Object.entries(stored).filter(([id]) => id !== slotId));
}

/** What a failed condition's old log says: refused (the live entries fill the limit), or what to know for the next round. */
export function judgeFailure(
  old: Slots | undefined,
  scope: SlotScope,
  slotId: string,
  nowMs: number,
): { refused: true; retryAfterSeconds: number | undefined } | { refused: false; known: KnownLog } {
  if (old === undefined) return { refused: false, known: { state: 'missing' } };
  if (!Object.hasOwn(old, slotId) && Object.keys(liveSlots(old, nowMs, scope.window)).length >= scope.limit) {
    return { refused: true, retryAfterSeconds: retryAfterSeconds(old, scope.limit, nowMs, scope.window) };
  }
  return { refused: false, known: { state: 'read', slots: old } };
}

/** A round's failure: for each scope whose condition failed, its log as it was (undefined: none). */
export type RoundFailure = ReadonlyMap<number, Slots | undefined>;

/**
 * After a failed round: refused when a failed scope's old log is full of live entries (Retry-After the
 * longest of them), else what is known for the next round.
 */
export function afterFailedRound(
  known: readonly KnownLog[],
  failure: RoundFailure,
  scopes: readonly SlotScope[],
  slotId: string,
  nowMs: number,
): { refused: Extract<TakeResult, { admitted: false }> } | { known: KnownLog[] } {
  const next = [...known];
  let refused: Extract<TakeResult, { admitted: false }> | undefined;
  for (const [index, old] of failure) {
    const scope = scopes[index];
    if (!scope) continue;
    const judged = judgeFailure(old, scope, slotId, nowMs);
    if (judged.refused) {
      const longest =
        refused === undefined
          ? judged.retryAfterSeconds
          : refused.retryAfterSeconds === undefined || judged.retryAfterSeconds === undefined
            ? undefined
            : Math.max(refused.retryAfterSeconds, judged.retryAfterSeconds);
      refused = { admitted: false, refusedBy: refused?.refusedBy ?? scope.log, retryAfterSeconds: longest };
    } else next[index] = judged.known;
  }
  return refused ? { refused } : { known: next };
}

/** One round as a store answers it: every write held (all or nothing), or which failed with their old logs. */
export type RoundResult = { ok: true } | { ok: false; failure: RoundFailure };

/**
 * A take, the one algorithm every store runs (the table's adapter, the tests' memory store): each round
 * plans every scope's write from what is known of its log and sends them as ONE all-or-nothing round;
 * a failed round's old logs either refuse the take or say what the next round writes. Undefined when
 * MAX_TAKE_ROUNDS were all lost to other writers (nothing taken: the caller answers 503).
 */
export async function takeInRounds(
  scopes: readonly SlotScope[],
  slotId: string,
  nowMs: number,
  round: (writes: SlotWrite[]) => Promise<RoundResult>,
): Promise<TakeResult | undefined> {
  let known: KnownLog[] = scopes.map(() => ({ state: 'unknown' }));
  for (let attempt = 0; attempt < MAX_TAKE_ROUNDS; attempt += 1) {
    const sent = await round(scopes.map((scope, i) => planWrite(known[i] ?? { state: 'unknown' }, scope, slotId, nowMs)));
    if (sent.ok) return { admitted: true, ticket: { slotId, logs: scopes.map((s) => s.log) } };
    const next = afterFailedRound(known, sent.failure, scopes, slotId, nowMs);
    if ('refused' in next) return next.refused;
    known = next.known;
  }
  return undefined;
}

/** Whether a set of scopes names a log twice (a transaction may touch an item once). */
export function namesALogTwice(scopes: readonly SlotScope[]): boolean {
  return new Set(scopes.map((s) => slotLogKey(s.log))).size !== scopes.length;
}

import { AsyncLocalStorage } from 'node:async_hooks';
import {
  ProvisionedThroughputExceededException,
  ThrottlingException,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import type { ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/lib-dynamodb';
import type { DeserializeMiddleware, InitializeMiddleware } from '@smithy/types';
import type { Db } from '../../shared/adapters/dynamo/dynamo';

/**
 * Fault injection into the AWS SDK itself: a middleware on the document client's stack (the runtime's
 * `db`), so the code under test meets the very errors DynamoDB and the network give, and nothing of
 * ours is mocked. Every DynamoDB call made inside `injector.run(plan, fn)` is recorded (command name,
 * its order, the keys it touches) and the planned call fails the planned way. Calls made outside a
 * `run` pass untouched, so other code sharing the client is not affected; runs may overlap (each has
 * its own record, kept in AsyncLocalStorage).
 */

export type FaultKind =
  /** ProvisionedThroughputExceededException (throttled; DynamoDB wrote nothing). */
  | 'provisioned-throughput'
  /** ThrottlingException (throttled; DynamoDB wrote nothing). */
  | 'throttling'
  /** TransactWriteItems: TransactionCanceledException whose reasons are None and one TransactionConflict; other calls: TransactionConflictException. */
  | 'conflict'
  /** An ECONNRESET before the request left: nothing was written. */
  | 'network-before-send'
  /** An ECONNRESET after DynamoDB answered: the call took effect but the caller cannot know (the ambiguous case). */
  | 'network-after-send'
  /** The process dies before the request leaves: nothing of the call happens and no code after it ever runs. */
  | 'crash-before-send'
  /** The process dies once DynamoDB has answered: the call took effect and no code after it ever runs. */
  | 'crash-after-send';

export type CallPoint = number | { command: string; nth: number };

type PlanTarget = {
  /** The call to fail: its index in the run's sequence, or the nth (0-based) call of a command (e.g. 'PutItemCommand'). */
  at: CallPoint;
  /** 'once': only that call. 'always': that call and every later call of the run with the same command and keys (retries of it). */
  times?: 'once' | 'always';
  /**
   * 'command' (default): the call as the code sees it, after the SDK's own retries. 'attempt': the first
   * HTTP attempt of the call, below the SDK's retry middleware, so the SDK may send the request again.
   */
  level?: 'command' | 'attempt';
};

/** The call fails (or the process dies) the way `kind` says. */
export type FailPlan = PlanTarget & { kind: FaultKind };

/** The call takes effect, then waits for `holdUntil` before its answer reaches the code (to make two runs overlap). */
export type HoldPlan = PlanTarget & { holdUntil: Promise<unknown>; onHold?: () => void };

export type FaultPlan = FailPlan | HoldPlan;

export type RecordedCall = {
  index: number;
  command: string;
  /** Order among the run's calls of the same command. */
  nth: number;
  /** The primary keys the call reads or writes (PK|SK), in order. */
  keys: string[];
  /** The fault this call met, if any. */
  fault?: FaultKind | 'hold';
};

export type RunOutcome<T> = { kind: 'returned'; value: T } | { kind: 'threw'; error: unknown } | { kind: 'crashed' };

export type RunResult<T> = { outcome: RunOutcome<T>; calls: RecordedCall[]; injected: number };

export type FaultInjector = {
  /** Runs `fn`, recording its DynamoDB calls and applying `plan` to them. A crash ends the run at once ('crashed'): fn never resumes. */
  run<T>(plan: FaultPlan | undefined, fn: () => Promise<T>): Promise<RunResult<T>>;
  /** Takes the middleware off the client's stack. */
  remove(): void;
};

type Scope = {
  plan: FaultPlan | undefined;
  calls: RecordedCall[];
  injected: number;
  /** Command and keys of the planned call once it was met (for 'always'). */
  target: { command: string; keys: string } | undefined;
  crash: () => void;
};

type Input = Record<string, unknown>;

const COMMAND_STEP = 'faultInjectionCommand';
const ATTEMPT_STEP = 'faultInjectionAttempt';

function keyOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { PK, SK } = value as { PK?: unknown; SK?: unknown };
  return PK === undefined ? undefined : `${String(PK)}|${String(SK)}`;
}

/** The keys of a document-client input (before marshalling): Key, Item, or each TransactItems entry. */
export function keysOf(input: Input): string[] {
  const direct = keyOf(input.Key) ?? keyOf(input.Item);
  if (direct) return [direct];
  const items = Array.isArray(input.TransactItems) ? (input.TransactItems as Record<string, { Key?: unknown; Item?: unknown }>[]) : [];
  return items.flatMap((entry) =>
    Object.values(entry)
      .map((op) => keyOf(op.Key) ?? keyOf(op.Item))
      .filter((k): k is string => k !== undefined),
  );
}

function matches(point: CallPoint, call: RecordedCall): boolean {
  return typeof point === 'number' ? call.index === point : call.command === point.command && call.nth === point.nth;
}

const metadata = { httpStatusCode: 400, attempts: 1, totalRetryDelay: 0 };

function networkError(): Error {
  return Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read', $metadata: { attempts: 1, totalRetryDelay: 0 } });
}

/** The error DynamoDB (or the network) gives for this fault on this call. */
export function faultError(kind: Exclude<FaultKind, 'crash-before-send' | 'crash-after-send'>, command: string, input: Input): Error {
  switch (kind) {
    case 'provisioned-throughput':
      return new ProvisionedThroughputExceededException({
        message: 'The level of configured provisioned throughput for the table was exceeded (injected)',
        $metadata: metadata,
      });
    case 'throttling':
      return new ThrottlingException({ message: 'Throughput exceeds the current capacity of your table or index (injected)', $metadata: metadata });
    case 'conflict': {
      if (command !== 'TransactWriteItemsCommand')
        return new TransactionConflictException({ message: 'Transaction is ongoing for the item (injected)', $metadata: metadata });
      const count = Array.isArray(input.TransactItems) ? input.TransactItems.length : 1;
      const reasons = Array.from({ length: count }, (_, i) =>
        i === 0 ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' },
      );
      return new TransactionCanceledException({
        message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}] (injected)`,
        CancellationReasons: reasons,
        $metadata: metadata,
      });
    }
    case 'network-before-send':
    case 'network-after-send':
      return networkError();
  }
}

/**
 * Installs the injector on a document client (e.g. `getRuntime().db`) until `remove()`. The command
 * step sits at `initialize` (one record per `db.send`, above the SDK's retries); the attempt step at
 * `deserialize` (once per HTTP attempt, below them).
 */
export function installFaultInjector(db: Db): FaultInjector {
  const storage = new AsyncLocalStorage<Scope>();
  /** The call of each SDK invocation whose first attempt is to fail (attempt-level plans). */
  const attemptFaults = new WeakMap<object, { scope: Scope; call: RecordedCall; plan: FaultPlan; input: Input; attempts: number }>();
  const never = new Promise<never>(() => undefined);

  async function apply(scope: Scope, call: RecordedCall, plan: FaultPlan, command: string, input: Input, send: () => Promise<unknown>): Promise<unknown> {
    scope.injected += 1;
    if ('holdUntil' in plan) {
      call.fault = 'hold';
      const result = await send();
      plan.onHold?.();
      await plan.holdUntil;
      return result;
    }
    call.fault = plan.kind;
    if (plan.kind === 'crash-before-send' || plan.kind === 'crash-after-send') {
      if (plan.kind === 'crash-after-send') await send();
      scope.crash();
      return never;
    }
    if (plan.kind === 'network-after-send') await send();
    throw faultError(plan.kind, command, input);
  }

  const commandStep: InitializeMiddleware<ServiceInputTypes, ServiceOutputTypes> = (next, context) => async (args) => {
    const scope = storage.getStore();
    if (!scope) return next(args);
    const command = context.commandName ?? 'unknown';
    const input = args.input as Input;
    const keys = keysOf(input);
    const call: RecordedCall = { index: scope.calls.length, command, nth: scope.calls.filter((c) => c.command === command).length, keys };
    scope.calls.push(call);
    const { plan } = scope;
    if (!plan) return next(args);
    const signature = keys.join(',');
    const first = scope.target === undefined && matches(plan.at, call);
    const again = plan.times === 'always' && scope.target?.command === command && scope.target.keys === signature;
    if (first) scope.target = { command, keys: signature };
    if (!first && !again) return next(args);
    if (plan.level === 'attempt') {
      attemptFaults.set(context, { scope, call, plan, input, attempts: 0 });
      return next(args);
    }
    return apply(scope, call, plan, command, input, () => next(args)) as ReturnType<typeof next>;
  };
  const attemptStep: DeserializeMiddleware<ServiceInputTypes, ServiceOutputTypes> = (next, context) => async (args) => {
    const planned = attemptFaults.get(context);
    if (!planned) return next(args);
    planned.attempts += 1;
    if (planned.attempts > 1) return next(args);
    return apply(planned.scope, planned.call, planned.plan, planned.call.command, planned.input, () => next(args)) as ReturnType<typeof next>;
  };
  db.middlewareStack.add(commandStep, { step: 'initialize', name: COMMAND_STEP, priority: 'high', tags: ['FAULT_INJECTION'] });
  db.middlewareStack.add(attemptStep, { step: 'deserialize', name: ATTEMPT_STEP, priority: 'high', tags: ['FAULT_INJECTION'] });

  return {
    async run<T>(plan: FaultPlan | undefined, fn: () => Promise<T>): Promise<RunResult<T>> {
      let crashed!: () => void;
      const crash = new Promise<RunOutcome<T>>((resolve) => {
        crashed = () => resolve({ kind: 'crashed' });
      });
      const scope: Scope = { plan, calls: [], injected: 0, target: undefined, crash: crashed };
      const finished = storage.run(scope, () =>
        fn().then(
          (value): RunOutcome<T> => ({ kind: 'returned', value }),
          (error: unknown): RunOutcome<T> => ({ kind: 'threw', error }),
        ),
      );
      const outcome = await Promise.race([finished, crash]);
      return { outcome, calls: [...scope.calls], injected: scope.injected };
    },
    remove() {
      db.middlewareStack.remove(COMMAND_STEP);
      db.middlewareStack.remove(ATTEMPT_STEP);
    },
  };
}

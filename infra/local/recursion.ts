import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { SQSClient } from '@aws-sdk/client-sqs';

/**
 * Lambda's recursive loop detection, applied by the local pollers (never deployed: AWS applies it).
 * In AWS the SDK carries the invocation's trace header into every message a function sends, SQS
 * keeps it with the message (AWSTraceHeader), and Lambda counts, per chain, how many times each
 * function has been invoked by it; the 17th invocation of a function whose RecursiveLoop is
 * `Terminate` (the default) is not made: the message goes to the queue's DLQ and the function's
 * `RecursiveInvocationsDropped` metric counts it (../shared/notes/aws-limits.md).
 *
 * Locally the chain rides beside the message instead of inside it (fauxqs keeps no trace header):
 * the handlers' SQS client remembers, per message id it sent, the chain of the invocation that sent
 * it (an AsyncLocalStorage set by the poller around each invocation), and the poller looks it up when
 * it receives the message. Both live in the one local stack process, as the handlers do.
 */

/** Invocations of one function in one chain that Lambda lets run; the next is stopped. */
export const RECURSION_LIMIT = 16;

/** A chain as the trace header carries it: its root and how many times each function has been invoked in it. */
export type Chain = { root: string; invocations: Readonly<Record<string, number>> };

/** Invoke (within `chain`, which counts this invocation), or stop (the chain's limit is reached for a `Terminate` function). */
export type RecursionVerdict = { kind: 'invoke'; chain: Chain } | { kind: 'stop'; chain: Chain };

/**
 * Lambda's rule for one invocation of `functionId` by a message that came with `sent` (the sender's
 * chain; undefined: a message sent outside any invocation starts a new chain).
 */
export function recursionVerdict(
  sent: Chain | undefined,
  functionId: string,
  recursiveLoop: 'Allow' | 'Terminate',
  newRoot: () => string = randomUUID,
): RecursionVerdict {
  const before = sent?.invocations ?? {};
  const chain: Chain = { root: sent?.root ?? newRoot(), invocations: { ...before, [functionId]: (before[functionId] ?? 0) + 1 } };
  const count = chain.invocations[functionId] ?? 0;
  return count > RECURSION_LIMIT && recursiveLoop !== 'Allow' ? { kind: 'stop', chain } : { kind: 'invoke', chain };
}

const running = new AsyncLocalStorage<Chain>();
/** The chain each message was sent in, by message id, until the message is done (deleted or dead-lettered). */
const sentIn = new Map<string, Chain>();
/** Invocations stopped by the rule, per function: the local `RecursiveInvocationsDropped`. */
const dropped = new Map<string, number>();

/** Runs one invocation within its chain: whatever it sends to SQS carries the chain. */
export function runInChain<T>(chain: Chain, invocation: () => Promise<T>): Promise<T> {
  return running.run(chain, invocation);
}

/** The chain a received message was sent in (undefined: sent outside any invocation). */
export function chainOfMessage(messageId: string): Chain | undefined {
  return sentIn.get(messageId);
}

/** The message is gone from its queue: its chain is no longer needed. */
export function forgetMessage(messageId: string): void {
  sentIn.delete(messageId);
}

/** Counts an invocation the rule stopped. */
export function countDropped(functionId: string): void {
  dropped.set(functionId, (dropped.get(functionId) ?? 0) + 1);
}

/** How many invocations of `functionId` the rule has stopped in this process. */
export function droppedInvocations(functionId: string): number {
  return dropped.get(functionId) ?? 0;
}

type SentOutput = { MessageId?: string; Successful?: { MessageId?: string }[] };

/**
 * Installs the trace header's local stand-in on a client the handlers send with (idempotent): each
 * message sent inside an invocation is remembered with that invocation's chain.
 */
export function propagateChains(sqs: SQSClient): void {
  sqs.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      const chain = running.getStore();
      if (chain && (context.commandName === 'SendMessageCommand' || context.commandName === 'SendMessageBatchCommand')) {
        const output = out.output as SentOutput;
        const ids = [output.MessageId, ...(output.Successful ?? []).map((m) => m.MessageId)];
        for (const id of ids) if (id) sentIn.set(id, chain);
        if (sentIn.size > 200_000) sentIn.clear();
      }
      return out;
    },
    { step: 'initialize', name: 'localTraceHeader', override: true },
  );
}

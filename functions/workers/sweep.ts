import { forwardUnforwarded } from '../../shared/app/events/forward';
import { forwardPorts } from '../../shared/wiring/forward';
import { endInvocation, type InvocationContext, logger, startInvocation } from '../../shared/platform/logger';
import { flushMetrics } from '../../shared/platform/metrics';
import { getRuntime } from '../../shared/wiring/runtime';

/** The earliest creation time the sweep looks back to: the stream keeps records 24 h, Lambda gives up within that; a week covers a long incident. */
const LOOK_BACK_MS = 7 * 24 * 3600 * 1000;

/**
 * Runs on a schedule (an EventBridge rule in AWS, a timer in the local stack): forwards every outbox
 * event and new withdraw still in the sweep's index SWEEP_AFTER_SECONDS after its creation, i.e.
 * never forwarded by the stream (a batch Lambda gave up on, records expired). Idempotent: a forwarded
 * item leaves the index, and the consumers absorb a second message (payouts by the bank's idempotency
 * key, webhooks by the attempt number).
 */
export async function handler(_event?: unknown, context?: InvocationContext): Promise<{ found: number; forwarded: number; failed: number }> {
  startInvocation(context, { worker: 'sweep' });
  try {
    return await sweep();
  } finally {
    flushMetrics();
    endInvocation();
  }
}

async function sweep(): Promise<{ found: number; forwarded: number; failed: number }> {
  const runtime = getRuntime();
  const now = runtime.clock.now();
  const cutoff = new Date(now.getTime() - runtime.config.sweep.afterSeconds * 1000).toISOString();
  const { found, sent, failed } = await forwardUnforwarded(forwardPorts(runtime), new Date(now.getTime() - LOOK_BACK_MS).toISOString(), cutoff);
  if (found === 0) return { found: 0, forwarded: 0, failed: 0 };
  logger.warn('sweep forwarded items the stream had not', { found, forwarded: sent.length, failed: failed.length });
  if (failed.length > 0) throw new Error(`${failed.length} items could not be forwarded; the next sweep tries again`);
  return { found, forwarded: sent.length, failed: failed.length };
}

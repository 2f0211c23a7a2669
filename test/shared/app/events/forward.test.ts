import { describe, expect, it } from 'vitest';
import { forwardItems, type ForwardPorts, forwardUnforwarded } from '../../../../shared/app/events/forward';
import type { Forwardable } from '../../../../shared/ports/forwarding';

const item = (n: number, queue: Forwardable['queue'] = 'webhooks'): Forwardable => ({
  PK: `K#${n}`,
  SK: 'S',
  queue,
  message: queue === 'webhooks' ? { eventId: `evt_${n}` } : { reference: `WD-${n}` },
});

/** Ports over captured queue calls; `refuse` names message positions refused per call, `failCall` makes a call throw. */
function ports(options: { refuse?: (call: number) => number[]; failCall?: number; payouts?: string; stored?: Forwardable[] } = {}) {
  const calls: { queueUrl: string; bodies: readonly object[] }[] = [];
  const left: string[] = [];
  const run: ForwardPorts = {
    index: { unforwarded: async (_from, _to, max) => (options.stored ?? []).slice(0, max), leave: async (forwarded) => void left.push(forwarded.PK) },
    queue: {
      send: async () => undefined,
      sendScheduled: async () => undefined,
      sendBatch: async (queueUrl, bodies) => {
        calls.push({ queueUrl, bodies });
        if (calls.length === options.failCall) throw new Error('queue down');
        return options.refuse?.(calls.length) ?? [];
      },
    },
    queues: { payouts: options.payouts, webhooks: 'https://q/webhooks', mail: 'https://q/mail' },
  };
  return { run, calls, left };
}

describe('forwarding items to their queues (use case)', () => {
  it('sends in batches of at most 10 per queue, and only the sent items leave the index', async () => {
    const items = Array.from({ length: 23 }, (_, n) => item(n));
    const { run, calls, left } = ports({ refuse: (call) => (call === 2 ? [0, 9] : []) });
    const { sent, failed } = await forwardItems(run, items);
    expect(calls.map((call) => call.bodies.length)).toEqual([10, 10, 3]);
    expect(failed.map((f) => f.PK)).toEqual(['K#10', 'K#19']);
    expect(sent).toHaveLength(21);
    expect(left.sort()).toEqual(sent.map((s) => s.PK).sort());
  });

  it('a failed call fails its whole batch; a queue not configured fails its items; nothing of those leaves the index', async () => {
    const { run, left } = ports({ failCall: 1 });
    const outcome = await forwardItems(run, [item(1), item(2), item(3, 'payouts')]);
    expect(outcome.sent).toEqual([]);
    expect(outcome.failed.map((f) => f.PK).sort()).toEqual(['K#1', 'K#2', 'K#3']);
    expect(left).toEqual([]);
  });

  it('forwards what the index still holds, at most the given number', async () => {
    const stored = [item(1), item(2, 'payouts'), item(3)];
    const { run, calls } = ports({ payouts: 'https://q/payouts', stored });
    const outcome = await forwardUnforwarded(run, '2026-11-27T00:00:00.000Z', '2026-11-27T01:00:00.000Z', 2);
    expect(outcome.found).toBe(2);
    expect(calls.map((call) => [call.queueUrl, call.bodies])).toEqual([
      ['https://q/payouts', [{ reference: 'WD-2' }]],
      ['https://q/webhooks', [{ eventId: 'evt_1' }]],
    ]);
  });
});

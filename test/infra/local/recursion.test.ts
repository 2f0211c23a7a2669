import { describe, expect, it } from 'vitest';
import { type Chain, RECURSION_LIMIT, recursionVerdict } from '../../../infra/local/recursion';
import { MAX_DELAY_SECONDS, maxHopSecondsFor } from '../../../shared/domain/delay-hops';

/** Invokes `functionId` `times` times in one chain, each invocation sending the next message. */
function chainOf(functionId: string, times: number, recursiveLoop: 'Allow' | 'Terminate'): { chain: Chain | undefined; stoppedAt: number | undefined } {
  let sent: Chain | undefined;
  for (let n = 1; n <= times; n += 1) {
    const verdict = recursionVerdict(sent, functionId, recursiveLoop, () => 'root-1');
    if (verdict.kind === 'stop') return { chain: sent, stoppedAt: n };
    sent = verdict.chain;
  }
  return { chain: sent, stoppedAt: undefined };
}

describe("Lambda's recursive loop rule (local stand-in)", () => {
  it('a message sent outside any invocation starts a chain: its first invocation counts 1', () => {
    const verdict = recursionVerdict(undefined, 'webhooks', 'Terminate', () => 'fresh');
    expect(verdict).toEqual({ kind: 'invoke', chain: { root: 'fresh', invocations: { webhooks: 1 } } });
  });

  it('Terminate: the 16 first invocations of a chain run, the 17th is stopped', () => {
    expect(RECURSION_LIMIT).toBe(16);
    const { chain, stoppedAt } = chainOf('payouts', 40, 'Terminate');
    expect(stoppedAt).toBe(17);
    expect(chain?.invocations.payouts).toBe(16);
  });

  it('Allow: the chain runs as long as the function keeps sending', () => {
    const { chain, stoppedAt } = chainOf('payouts', 200, 'Allow');
    expect(stoppedAt).toBeUndefined();
    expect(chain?.invocations.payouts).toBe(200);
    expect(chain?.root).toBe('root-1');
  });

  it("counts each function's invocations apart: another function's count does not stop this one", () => {
    const other: Chain = { root: 'r', invocations: { StreamForwarder: 30 } };
    const verdict = recursionVerdict(other, 'webhooks', 'Terminate');
    expect(verdict).toEqual({ kind: 'invoke', chain: { root: 'r', invocations: { StreamForwarder: 30, webhooks: 1 } } });
  });

  it('keeps the chain root a message was sent in', () => {
    const verdict = recursionVerdict({ root: 'abc', invocations: { webhooks: 3 } }, 'webhooks', 'Terminate', () => 'never');
    expect(verdict.chain.root).toBe('abc');
    expect(verdict.chain.invocations.webhooks).toBe(4);
  });
});

describe('hops of a scaled schedule', () => {
  it("is SQS's 15 minutes at scale 1, and shrinks with the scale down to a whole second", () => {
    expect(maxHopSecondsFor(1)).toBe(MAX_DELAY_SECONDS);
    expect(maxHopSecondsFor(1 / 900)).toBe(1);
    expect(maxHopSecondsFor(0.01)).toBe(9);
    expect(maxHopSecondsFor(0.0001)).toBe(1);
    expect(maxHopSecondsFor(0)).toBe(MAX_DELAY_SECONDS);
    expect(maxHopSecondsFor(Number.NaN)).toBe(MAX_DELAY_SECONDS);
  });
});

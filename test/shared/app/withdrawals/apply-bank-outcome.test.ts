import { describe, expect, it } from 'vitest';
import { applyBankOutcome, type BankOutcome } from '../../../../shared/app/withdrawals/apply-bank-outcome';
import type { Change, OutboxEvent } from '../../../../shared/domain/changes';
import { movementShard } from '../../../../shared/domain/ledger';
import type { Withdrawal } from '../../../../shared/domain/withdrawal';
import type { WithdrawalStore } from '../../../../shared/ports/withdrawals';
import { heldWithdrawal } from '../../../support/withdrawals';

const withdrawal = heldWithdrawal();
const now = new Date('2026-11-27T13:00:00.000Z');
const outcome = (paid: boolean): BankOutcome => ({
  notification: 'n1',
  reference: withdrawal.reference,
  paid,
  endToEndId: paid ? 'E123' : undefined,
  occurredAt: new Date('2026-11-27T12:59:00.000Z'),
});

/** Ports over one stored withdrawal; commits are captured (and answer `committed`). */
function ports(stored: Withdrawal | undefined, committed = true) {
  const commits: (readonly Change[])[] = [];
  const store: WithdrawalStore = {
    get: async (reference) => (reference === stored?.reference ? stored : undefined),
    list: async () => [],
    markBankRequested: async () => undefined,
  };
  const newEvent = (type: string, data: Record<string, unknown>): OutboxEvent => ({ id: 'evt_1', type, created: 1, api_version: 'v', data });
  return {
    commits,
    ports: {
      withdrawals: store,
      newEvent,
      commitMove: async (changes: readonly Change[]) => {
        commits.push(changes);
        return committed;
      },
    },
  };
}

describe('apply a bank outcome (use case)', () => {
  it('paid: the status move (conditional on PENDING), the hold POSTED, pixout.paid; one commit', async () => {
    const run = ports(withdrawal);
    expect(await applyBankOutcome(run.ports, outcome(true), now)).toBe(true);
    expect(run.commits).toHaveLength(1);
    const [moved, posted, event] = run.commits[0] ?? [];
    expect(moved).toEqual({
      kind: 'withdrawal.moved',
      reference: withdrawal.reference,
      from: 'PENDING',
      to: 'PAID',
      version: 2,
      at: '2026-11-27T12:59:00.000Z',
      endToEndId: 'E123',
    });
    expect(posted).toMatchObject({
      kind: 'ledger.transfer',
      phase: 'posted',
      shards: [{ shard: movementShard(withdrawal), availableCents: 0, reservedCents: -10_150 }],
    });
    expect(event).toEqual({
      kind: 'event.recorded',
      accountId: 'acct_1',
      event: {
        id: 'evt_1',
        type: 'pixout.paid',
        created: 1,
        api_version: 'v',
        data: {
          withdraw: { reference: withdrawal.reference, amount: '100.00', fee: '1.50', status: 'PAID', version: 2, previous_status: 'PENDING' },
        },
      },
    });
  });

  it('refused: CANCELED, the hold VOIDED (amount + fee back to available, out of reserved), pixout.canceled', async () => {
    const run = ports(withdrawal);
    expect(await applyBankOutcome(run.ports, outcome(false), now)).toBe(true);
    const changes = run.commits[0] ?? [];
    expect(changes.map((c) => c.kind)).toEqual(['withdrawal.moved', 'ledger.transfer', 'event.recorded']);
    expect(changes[0]).toEqual({
      kind: 'withdrawal.moved',
      reference: withdrawal.reference,
      from: 'PENDING',
      to: 'CANCELED',
      version: 2,
      at: '2026-11-27T12:59:00.000Z',
    });
    expect(changes[1]).toMatchObject({ phase: 'voided', entries: [{ type: 'withdrawal_release', availableCents: 10_150, reservedCents: -10_150 }] });
  });

  it('a withdraw reserved before holds: paid moves no balance, refused gives amount + fee back to available alone', async () => {
    const { heldCents: _held, ...legacy } = withdrawal;
    const paid = ports(legacy);
    await applyBankOutcome(paid.ports, outcome(true), now);
    expect((paid.commits[0] ?? []).map((c) => c.kind)).toEqual(['withdrawal.moved', 'event.recorded']);
    const refused = ports(legacy);
    await applyBankOutcome(refused.ports, outcome(false), now);
    expect((refused.commits[0] ?? [])[1]).toMatchObject({ phase: 'voided', entries: [{ availableCents: 10_150, reservedCents: 0 }] });
  });

  it('changes nothing for an unknown withdraw, a move not allowed, or one already made (the commit found it moved)', async () => {
    const unknown = ports(undefined);
    expect(await applyBankOutcome(unknown.ports, outcome(true), now)).toBe(false);
    expect(unknown.commits).toEqual([]);
    const done = ports({ ...withdrawal, status: 'PAID' });
    expect(await applyBankOutcome(done.ports, outcome(false), now)).toBe(false);
    expect(done.commits).toEqual([]);
    const raced = ports(withdrawal, false);
    expect(await applyBankOutcome(raced.ports, outcome(true), now)).toBe(false);
    expect(raced.commits).toHaveLength(1);
  });
});

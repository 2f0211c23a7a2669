import { describe, expect, it } from 'vitest';
import type { Change, OutboxEvent } from '../../../../shared/domain/changes';
import type { Invoice } from '../../../../shared/domain/invoice';
import type { PixChargeState } from '../../../../shared/domain/pix-outcomes';
import { pixSweep, type PixSweepPorts } from '../../../../shared/app/invoices/pix-sweep';
import { noneChecked } from '../../../../shared/app/invoices/pix-statement';
import { sweepGivesUp } from '../../../../shared/app/invoices/reconcile-pix-invoice';
import { ProviderError, type LookingUpPixProvider } from '../../../../shared/ports/payment-provider';

const now = new Date('2026-11-27T13:00:00.000Z');

const pending = (reference: string, dueDate = '2026-11-28'): Invoice => ({
  accountId: 'acct_1',
  invoiceId: 1,
  reference,
  merchantName: 'Loja',
  method: 'pix',
  status: 'PENDING',
  invoiceNo: 'N1',
  itemName: 'Item',
  quantity: 1,
  amountCents: 1_000,
  tax: 0,
  discount: 0,
  totalCents: 1_000,
  dueDate,
  payer: {},
  pix: { txid: `${reference.replace('-', '')}00000000000000000000000`, location: 'loc', copy: '000201' },
  createdAt: '2026-11-27T12:00:00.000Z',
  provider: 'apipix',
  awaitsPixLookup: true,
});

/** A sweep over stored invoices, one index partition, and a PSP holding `states` (a txid missing: the PSP fails). */
function sweepPorts(stored: Invoice[], indexed: string[], states: Record<string, PixChargeState | undefined>) {
  const commits: (readonly Change[])[] = [];
  const retired: string[] = [];
  const byReference = new Map(stored.map((invoice) => [invoice.reference, invoice]));
  const provider: LookingUpPixProvider = {
    name: 'apipix',
    charges: {
      pix: async () => {
        throw new Error('not asked');
      },
    },
    lookupPixCharge: async (txid) => {
      if (!(txid in states)) throw new ProviderError('PSP down');
      return states[txid];
    },
  };
  const ports: PixSweepPorts = {
    invoices: { byReference: async (reference) => byReference.get(reference), byTxid: async (txid) => stored.find((invoice) => invoice.pix?.txid === txid) },
    checkouts: { get: async () => undefined },
    newEvent: (type, data): OutboxEvent => ({ id: 'evt', type, created: 1, api_version: 'v', data }),
    commitMove: async (changes) => {
      commits.push(changes);
      return true;
    },
    timeoutMs: 1_000,
    index: {
      partitions: ['P0'],
      due: async (_partition, before) => (before === '2026-11-27T12:30:00.000Z' ? indexed : []),
      retire: async (reference) => {
        retired.push(reference);
        return true;
      },
    },
    providerOf: () => provider,
    afterMinutes: 30,
    nowMs: () => 0,
  };
  return { ports, commits, retired };
}

const active = (invoice: Invoice, payments: PixChargeState['payments'] = []): PixChargeState => ({
  txid: invoice.pix?.txid ?? '',
  status: payments.length > 0 ? 'COMPLETED' : 'ACTIVE',
  amountCents: 1_000,
  payments,
});

describe('the Pix sweep (use case)', () => {
  it('reads back the charges indexed before now − the wait; pays a paid one; skips what the index still lists but is no longer PENDING', async () => {
    const paid = pending('INV-PAID01');
    const done = { ...pending('INV-DONE01'), status: 'PAID' as const };
    const run = sweepPorts([paid, done], ['INV-PAID01', 'INV-DONE01', 'INV-GONE01'], {
      [paid.pix?.txid ?? '']: active(paid, [{ endToEndId: 'E1', amountCents: 1_000, paidAt: now, refundedCents: 0 }]),
    });
    const outcome = await pixSweep(run.ports, now, 60_000);
    expect(outcome).toEqual({ checked: 1, applied: 1, anomalies: 0, retired: 0, failed: 0, statement: noneChecked() });
    expect(run.commits.map((changes) => changes[0])).toMatchObject([{ kind: 'invoice.moved', invoice: { reference: 'INV-PAID01' }, move: { to: 'PAID' } }]);
  });

  it('a PSP failure is counted and the run goes on; a charge unpaid a day past its due date leaves the index', async () => {
    const failing = pending('INV-FAIL01');
    const stale = pending('INV-OLD001', '2026-11-25');
    const fresh = pending('INV-NEW001');
    const run = sweepPorts([failing, stale, fresh], ['INV-FAIL01', 'INV-OLD001', 'INV-NEW001'], {
      [stale.pix?.txid ?? '']: active(stale),
      [fresh.pix?.txid ?? '']: active(fresh),
    });
    const outcome = await pixSweep(run.ports, now, 60_000);
    expect(outcome).toEqual({ checked: 3, applied: 0, anomalies: 0, retired: 1, failed: 1, statement: noneChecked() });
    expect(run.retired).toEqual(['INV-OLD001']);
    expect(run.commits).toEqual([]);
  });

  it('gives up on a charge only once a full day has passed after its due date (Brazil time), and only while it waits in the index', () => {
    const invoice = pending('INV-AAAAAA', '2026-11-26');
    // 2026-11-26 ends at 03:00 UTC on the 27th; a day later is 03:00 UTC on the 28th.
    expect(sweepGivesUp(invoice, new Date('2026-11-28T02:59:59.000Z'))).toBe(false);
    expect(sweepGivesUp(invoice, new Date('2026-11-28T03:00:00.000Z'))).toBe(true);
    expect(sweepGivesUp({ ...invoice, awaitsPixLookup: undefined }, new Date('2026-11-29T00:00:00.000Z'))).toBe(false);
    expect(sweepGivesUp({ ...invoice, status: 'PAID' }, new Date('2026-11-29T00:00:00.000Z'))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { keepRails, type RailClosing, type RailPorts } from '../../../../shared/app/invoices/rail-upkeep';
import type { BolePixRail } from '../../../../shared/domain/bolepix';
import type { OutboxEvent } from '../../../../shared/domain/changes';
import type { Invoice } from '../../../../shared/domain/invoice';
import { anInvoice, RECORD_TIME } from '../../../support/records';

const now = new Date('2026-11-27T13:00:00.000Z');

/** A BolePix paid by boleto: its Pix half is the rail the upkeep closes. */
const paidByBoleto: Invoice = anInvoice({
  method: 'boleto',
  dueDate: '2026-11-28',
  boleto: { barcode: '9'.repeat(44), digitable: '9'.repeat(47), customerId: 7 },
  status: 'PAID',
  paidAt: RECORD_TIME,
  paidRail: 'boleto',
  paidAmountCents: 2_500,
});

/**
 * The upkeep's ports over one stored invoice (replaced by `recordedAfterLookup` once the Pix half is read
 * back, when given) and providers that answer `closing` for each rail.
 */
function upkeepPorts(closing: Record<BolePixRail, RailClosing>, recordedAfterLookup?: Invoice) {
  let stored = paidByBoleto;
  const retired: string[] = [];
  const lookups: string[] = [];
  const ports: RailPorts & { index: { retire: (reference: string) => Promise<boolean> } } = {
    invoices: { byReference: async () => stored, byTxid: async () => stored },
    checkouts: { get: async () => undefined },
    newEvent: (type, data): OutboxEvent => ({ id: 'evt', type, created: 1, api_version: 'v', data }),
    commitMove: async () => true,
    closeRail: async (_invoice, rail) => closing[rail],
    reconcilePixHalf: async (invoice) => {
      lookups.push(invoice.reference);
      if (recordedAfterLookup) stored = recordedAfterLookup;
    },
    timeoutMs: 1_000,
    index: {
      retire: async (reference) => {
        retired.push(reference);
        return true;
      },
    },
  };
  return { ports, retired, lookups };
}

describe('the rails upkeep finds a payment the provider holds and the ledger does not (issue 43)', () => {
  it('a rail closed as expected: no lookup, the invoice leaves the index', async () => {
    const run = upkeepPorts({ pix: 'closed', boleto: 'closed' });
    expect(await keepRails(run.ports, paidByBoleto.reference, now)).toEqual({ expired: false, closed: 1 });
    expect(run.lookups).toEqual([]);
    expect(run.retired).toEqual([paidByBoleto.reference]);
  });

  it('the Pix half found paid with no payment recorded: read back and recorded, then the invoice leaves the index', async () => {
    const recorded: Invoice = { ...paidByBoleto, otherRailPayment: { rail: 'pix', amountCents: 2_500, at: RECORD_TIME } };
    const run = upkeepPorts({ pix: 'paid', boleto: 'closed' }, recorded);
    await keepRails(run.ports, paidByBoleto.reference, now);
    expect(run.lookups).toEqual([paidByBoleto.reference]);
    expect(run.retired).toEqual([paidByBoleto.reference]);
  });

  it('a paid rail still unrecorded after the lookup stays in the index (the next run looks again)', async () => {
    const run = upkeepPorts({ pix: 'paid', boleto: 'closed' });
    await keepRails(run.ports, paidByBoleto.reference, now);
    expect(run.lookups).toEqual([paidByBoleto.reference]);
    expect(run.retired).toEqual([]);
  });

  it('a paid rail already recorded as the refund due needs no lookup', async () => {
    const recorded: Invoice = { ...paidByBoleto, otherRailPayment: { rail: 'pix', amountCents: 2_500, at: RECORD_TIME } };
    const run = upkeepPorts({ pix: 'paid', boleto: 'closed' });
    run.ports.invoices.byReference = async () => recorded;
    await keepRails(run.ports, paidByBoleto.reference, now);
    expect(run.lookups).toEqual([]);
    expect(run.retired).toEqual([paidByBoleto.reference]);
  });
});

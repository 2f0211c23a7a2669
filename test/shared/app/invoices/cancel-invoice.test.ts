import { describe, expect, it } from 'vitest';
import { cancelInvoice, type CancelInvoicePorts, type RailWithdrawal } from '../../../../shared/app/invoices/cancel-invoice';
import type { OutboxEvent } from '../../../../shared/domain/changes';
import type { Checkout } from '../../../../shared/domain/checkout';
import { InvoiceNotCancelableError, NotFoundError, UpstreamError } from '../../../../shared/domain/errors';
import type { Invoice } from '../../../../shared/domain/invoice';
import type { CancelRail } from '../../../../shared/domain/invoice-cancel';
import { ProviderError } from '../../../../shared/ports/payment-provider';
import { aCheckout, anInvoice } from '../../../support/records';

const now = new Date('2026-11-27T13:00:00.000Z');

const pix = anInvoice({ version: 1 });
const boleto = anInvoice({
  reference: 'INV-BBBBBB',
  invoiceId: 1002,
  method: 'boleto',
  pix: undefined,
  boleto: { barcode: '9'.repeat(44), digitable: '9'.repeat(47), customerId: 7 },
});
const bolePix = anInvoice({
  reference: 'INV-CCCCCC',
  invoiceId: 1003,
  method: 'boleto',
  boleto: { barcode: '9'.repeat(44), digitable: '9'.repeat(47), customerId: 7 },
  pix: { txid: 'INVCCCCCC00000000000000000000000', location: 'loc', copy: '000201' },
});

/** Ports over one stored invoice (and checkout); each rail withdrawal is recorded and answered from `rails` (else `removed`). */
function ports(stored: Invoice | undefined, rails: Partial<Record<CancelRail, RailWithdrawal | Error>> = {}, checkout?: Checkout) {
  const asked: CancelRail[] = [];
  let events = 0;
  const run: CancelInvoicePorts = {
    invoices: { byNumericId: async (id) => (id === stored?.invoiceId ? stored : undefined) },
    checkouts: { get: async (reference) => (reference === checkout?.reference ? checkout : undefined) },
    newEvent: (type: string, data: Record<string, unknown>): OutboxEvent => ({ id: `evt_${(events += 1)}`, type, created: 1, api_version: 'v', data }),
    withdrawRail: async (invoice, rail) => {
      expect(invoice.reference).toBe(stored?.reference);
      asked.push(rail);
      const answer = rails[rail] ?? 'removed';
      if (answer instanceof Error) throw answer;
      return answer;
    },
    timeoutMs: 1_000,
  };
  return { ports: run, asked };
}

const input = (invoice: Invoice, accountId = 'acct_1') => ({ accountId, invoiceId: invoice.invoiceId, now });

describe('cancel a PENDING invoice (use case)', () => {
  it.each([
    ['Pix (its cob)', pix, ['pix_charge']],
    ['boleto (written off)', boleto, ['boleto']],
    ['BolePix (its cobv, then its boleto)', bolePix, ['pix_due_charge', 'boleto']],
  ] as const)('%s: the rails withdrawn first, then PENDING → CANCELED with invoice.canceled', async (_name, invoice, rails) => {
    const run = ports(invoice);
    const result = await cancelInvoice(run.ports, input(invoice));
    expect(run.asked).toEqual(rails);
    const [moved, event, ...rest] = result.changes;
    expect(rest).toEqual([]);
    expect(moved).toMatchObject({
      kind: 'invoice.moved',
      invoice,
      move: { from: 'PENDING', to: 'CANCELED', event: 'invoice.canceled', balance: 0 },
      at: now.toISOString(),
      eventId: 'evt_1',
      // Lost to a payment or another cancellation at the commit: refused (400), not taken as made.
      lostRace: 'not_cancelable',
    });
    expect(moved).not.toHaveProperty('payment');
    expect(event).toMatchObject({
      kind: 'event.recorded',
      accountId: 'acct_1',
      event: { id: 'evt_1', type: 'invoice.canceled', data: { invoice: { reference: invoice.reference, status: 'CANCELED', previous_status: 'PENDING' } } },
    });
    // No balance moves: nothing was paid.
    expect(result.changes.some((change) => change.kind === 'ledger.transfer')).toBe(false);
    expect(result.answer.invoice).toMatchObject({ reference: invoice.reference, status: 'CANCELED', canceledAt: now.toISOString(), eventIds: ['evt_1'] });
    expect(result.answer.invoice.version).toBe((invoice.version ?? 1) + 1);
  });

  it("the event carries the invoice's next version", async () => {
    const result = await cancelInvoice(ports(pix).ports, input(pix));
    const event = result.changes.find((change) => change.kind === 'event.recorded');
    expect(event?.kind === 'event.recorded' ? event.event.data : undefined).toMatchObject({ invoice: { version: 2, previous_status: 'PENDING' } });
  });

  it('a rail already withdrawn (a retry after a lost answer) or unknown to its provider counts as withdrawn', async () => {
    const run = ports(bolePix, { pix_due_charge: 'removed', boleto: 'unknown' });
    const result = await cancelInvoice(run.ports, input(bolePix));
    expect(run.asked).toEqual(['pix_due_charge', 'boleto']);
    expect(result.changes[0]).toMatchObject({ kind: 'invoice.moved', move: { to: 'CANCELED' } });
  });

  it("an unpaid hosted checkout's Pix charge canceled abandons the checkout, as a provider's cancellation does", async () => {
    const checkout = aCheckout({ pixReference: pix.reference });
    const result = await cancelInvoice(ports({ ...pix, checkoutReference: checkout.reference }, {}, checkout).ports, input(pix));
    expect(result.changes.map((change) => change.kind)).toEqual(['invoice.moved', 'event.recorded', 'checkout.abandoned']);
  });

  it.each(['PAID', 'CANCELED', 'REFUNDED'] as const)('%s: 400 invoice_not_pending, no rail asked, nothing moved', async (status) => {
    const run = ports(anInvoice({ status }));
    const refused = cancelInvoice(run.ports, input(pix));
    await expect(refused).rejects.toBeInstanceOf(InvoiceNotCancelableError);
    await expect(refused).rejects.toMatchObject({ kind: 'invalid', code: 'invoice_not_pending' });
    expect(run.asked).toEqual([]);
  });

  it.each(['PENDING', 'PAID'] as const)('a card charge (%s): 400 method_not_cancelable, nothing asked', async (status) => {
    const card = anInvoice({ method: 'creditcard', pix: undefined, status });
    const run = ports(card);
    await expect(cancelInvoice(run.ports, input(card))).rejects.toMatchObject({ kind: 'invalid', code: 'method_not_cancelable' });
    expect(run.asked).toEqual([]);
  });

  it.each([
    ['Pix', pix, { pix_charge: 'paid' }, ['pix_charge']],
    ['boleto', boleto, { boleto: 'paid' }, ['boleto']],
    ['BolePix, its Pix half', bolePix, { pix_due_charge: 'paid' }, ['pix_due_charge']],
    ['BolePix, its boleto', bolePix, { boleto: 'paid' }, ['pix_due_charge', 'boleto']],
  ] as const)('%s found paid at its rail: 400 paid_at_rail, nothing moved', async (_name, invoice, rails, asked) => {
    const run = ports(invoice, rails);
    await expect(cancelInvoice(run.ports, input(invoice))).rejects.toMatchObject({ kind: 'invalid', code: 'paid_at_rail' });
    expect(run.asked).toEqual(asked);
  });

  it('another account, or an unknown id: 404, nothing asked', async () => {
    const run = ports(pix);
    await expect(cancelInvoice(run.ports, input(pix, 'acct_2'))).rejects.toBeInstanceOf(NotFoundError);
    await expect(cancelInvoice(run.ports, { accountId: 'acct_1', invoiceId: 999, now })).rejects.toBeInstanceOf(NotFoundError);
    expect(run.asked).toEqual([]);
  });

  it('a provider failure: 502 upstream_error, nothing moved', async () => {
    const run = ports(pix, { pix_charge: new ProviderError('down') });
    await expect(cancelInvoice(run.ports, input(pix))).rejects.toBeInstanceOf(UpstreamError);
  });
});

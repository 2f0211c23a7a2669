import { describe, expect, it } from 'vitest';
import { applyNotification, type ChargeNotification, type InvoiceMovePorts } from '../../../../shared/app/invoices/apply-notification';
import type { Change, OutboxEvent } from '../../../../shared/domain/changes';
import type { Checkout } from '../../../../shared/domain/checkout';
import type { Invoice } from '../../../../shared/domain/invoice';
import { CheckoutChangedError, PaymentRaceError } from '../../../../shared/domain/errors';
import { aCheckout, anInvoice } from '../../../support/records';

const now = new Date('2026-11-27T13:00:00.000Z');
const at = '2026-11-27T12:59:00.000Z';

const invoice: Invoice = anInvoice();

const checkout: Checkout = aCheckout();

const notification = (kind: ChargeNotification['kind']): ChargeNotification => ({
  id: 'n1',
  kind,
  target: { reference: invoice.reference },
  occurredAt: new Date(at),
});

/**
 * Ports over one stored invoice and checkout; commits are captured and answered by `answers` in turn (then
 * true). `stored` may be a list: each read of the invoice gets the next one (the last one after that), as
 * when other moves commit between the reads.
 */
function ports(storedNow: Invoice | undefined | readonly (Invoice | undefined)[], storedCheckout?: Checkout, answers: Array<boolean | Error> = []) {
  const commits: (readonly Change[])[] = [];
  const versions = Array.isArray(storedNow) ? [...(storedNow as readonly (Invoice | undefined)[])] : [storedNow as Invoice | undefined];
  let reads = 0;
  const current = () => versions[Math.min(reads, versions.length) - 1];
  let events = 0;
  const newEvent = (type: string, data: Record<string, unknown>): OutboxEvent => ({ id: `evt_${(events += 1)}`, type, created: 1, api_version: 'v', data });
  const run: InvoiceMovePorts = {
    invoices: {
      byReference: async (reference) => {
        reads += 1;
        const stored = current();
        return reference === stored?.reference ? stored : undefined;
      },
      byTxid: async (txid) => {
        reads += 1;
        const stored = current();
        return txid === stored?.pix?.txid ? stored : undefined;
      },
    },
    checkouts: { get: async (reference) => (reference === storedCheckout?.reference ? storedCheckout : undefined) },
    newEvent,
    commitMove: async (changes) => {
      commits.push(changes);
      const answer = answers.shift() ?? true;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { commits, ports: run, reads: () => reads };
}

const eventOf = (change: Change | undefined) => (change?.kind === 'event.recorded' ? change.event : undefined);

describe('apply a provider notification (use case)', () => {
  it('paid: the move conditional on PENDING, the credit of the total, invoice.paid; one commit', async () => {
    const run = ports(invoice);
    expect(await applyNotification(run.ports, notification('paid'), now)).toBe(true);
    expect(run.commits).toHaveLength(1);
    const [moved, credit, event] = run.commits[0] ?? [];
    // The move names the event it records: the invoice keeps its events' ids (the panel's invoice page).
    expect(moved).toEqual({
      kind: 'invoice.moved',
      invoice,
      move: { from: 'PENDING', to: 'PAID', event: 'invoice.paid', balance: 1 },
      at,
      eventId: eventOf(event)?.id,
      payment: { rail: 'pix', amountCents: 2_500 },
    });
    expect(eventOf(event)?.id).toMatch(/^evt_/);
    expect(credit).toMatchObject({ kind: 'ledger.transfer', entries: [{ type: 'payment', availableCents: 2_500 }] });
    expect(eventOf(event)).toMatchObject({
      type: 'invoice.paid',
      data: { invoice: { reference: 'INV-AAAAAA', total: '25.00', status: 'PAID', paid_after_cancel: false, rail: 'pix', paid_amount: '25.00' } },
    });
  });

  describe('a BolePix (a boleto with its due-date Pix half, issue 28)', () => {
    // Total 25.00, due 2026-11-27; fine 2%, interest 1% a month, payable 10 days after.
    const bolePix: Invoice = anInvoice({
      method: 'boleto',
      dueDate: '2026-11-27',
      boleto: { barcode: '9'.repeat(44), digitable: '9'.repeat(47), customerId: 7 },
      late: { fineBasisPoints: 200, interestBasisPointsAMonth: 100, daysAfterDue: 10 },
    });
    const txid = bolePix.pix?.txid ?? '';
    const paid = (target: ChargeNotification['target'], when: string, amountCents?: number): ChargeNotification => ({
      id: `n-${when}`,
      kind: 'paid',
      target,
      occurredAt: new Date(when),
      ...(amountCents === undefined ? {} : { amountCents }),
    });
    const oneDayLate = '2026-11-28T15:00:00.000Z';

    it('a payment by Pix one day late credits total + fine + one day of interest, with its rail, in the move and invoice.paid', async () => {
      const run = ports(bolePix);
      // 2500 + round(2500 × 2%) = 50 + round(2500 × 1% / 30 × 1) = 1 → 2551.
      expect(await applyNotification(run.ports, paid({ txid }, oneDayLate, 2_551), now)).toBe(true);
      const [moved, credit, event] = run.commits[0] ?? [];
      expect(moved).toMatchObject({ kind: 'invoice.moved', payment: { rail: 'pix', amountCents: 2_551 } });
      expect(credit).toMatchObject({
        kind: 'ledger.transfer',
        entries: [{ type: 'payment', availableCents: 2_551, method: 'pix', description: 'Payment of INV-AAAAAA (boleto) by pix' }],
      });
      expect(eventOf(event)?.data).toMatchObject({ invoice: { method: 'boleto', rail: 'pix', paid_amount: '25.51', total: '25.00' } });
    });

    it('an amount off by one cent is not credited (nothing committed), nor a payment past days_after_due', async () => {
      const run = ports(bolePix);
      expect(await applyNotification(run.ports, paid({ txid }, oneDayLate, 2_550), now)).toBe(false);
      expect(await applyNotification(run.ports, paid({ reference: bolePix.reference }, oneDayLate, 2_552), now)).toBe(false);
      expect(await applyNotification(run.ports, paid({ txid }, '2026-12-08T15:00:00.000Z'), now)).toBe(false);
      expect(run.commits).toEqual([]);
    });

    it('paid by boleto, then by Pix: the Pix payment is credited apart and recorded as a refund due, no second move or invoice.paid', async () => {
      const paidByBoleto: Invoice = { ...bolePix, status: 'PAID', paidAt: at, paidRail: 'boleto', paidAmountCents: 2_500 };
      const run = ports(paidByBoleto);
      expect(await applyNotification(run.ports, paid({ txid }, at, 2_500), now)).toBe(true);
      expect(run.commits).toHaveLength(1);
      const [other, credit, ...rest] = run.commits[0] ?? [];
      expect(other).toEqual({ kind: 'invoice.other_rail_paid', invoice: paidByBoleto, rail: 'pix', amountCents: 2_500, at });
      // Held on the reserved balance until it goes back to the payer (issue 43): never withdrawable.
      expect(credit).toMatchObject({
        kind: 'ledger.transfer',
        phase: 'pending',
        shards: [{ availableCents: 0, reservedCents: 2_500 }],
        entries: [{ type: 'payment', availableCents: 0, reservedCents: 2_500, method: 'pix', description: expect.stringContaining('refund') }],
      });
      expect(rest).toEqual([]);
      // The same rail again is no payment of anything (the move table ignores it).
      const again = ports(paidByBoleto);
      expect(await applyNotification(again.ports, paid({ reference: bolePix.reference }, at), now)).toBe(false);
      expect(again.commits).toEqual([]);
    });

    it('a second payment already recorded changes nothing; the commit refused (a duplicate) answers false', async () => {
      const recorded: Invoice = { ...bolePix, status: 'PAID', paidAt: at, paidRail: 'boleto', otherRailPayment: { rail: 'pix', amountCents: 2_500, at } };
      const run = ports(recorded);
      expect(await applyNotification(run.ports, paid({ txid }, at), now)).toBe(false);
      expect(run.commits).toEqual([]);
      // A duplicate recorded it between the read and the commit: the commit is refused, the read again finds it recorded.
      const raced = ports([{ ...bolePix, status: 'PAID', paidAt: at, paidRail: 'boleto' }, recorded], undefined, [false]);
      expect(await applyNotification(raced.ports, paid({ txid }, at), now)).toBe(false);
      expect(raced.commits).toHaveLength(1);
      expect(raced.reads()).toBe(2);
    });

    it('paid on both rails at the same instant (issue 43): the payment whose move lost reads again and is held apart as a refund due', async () => {
      const paidByBoleto: Invoice = { ...bolePix, status: 'PAID', paidAt: at, paidRail: 'boleto', paidAmountCents: 2_500 };
      // Read PENDING; the boleto's move committed first, so this move is refused; the invoice read again is PAID by boleto.
      const run = ports([bolePix, paidByBoleto], undefined, [false]);
      expect(await applyNotification(run.ports, paid({ txid }, at, 2_500), now)).toBe(true);
      expect(run.commits.map((changes) => changes.map((c) => c.kind))).toEqual([
        ['invoice.moved', 'ledger.transfer', 'event.recorded'],
        ['invoice.other_rail_paid', 'ledger.transfer'],
      ]);
      expect(run.commits[1]?.[0]).toMatchObject({ rail: 'pix', amountCents: 2_500, invoice: paidByBoleto });
      expect(run.commits[1]?.[1]).toMatchObject({ entries: [{ reservedCents: 2_500, availableCents: 0 }] });
    });

    it('a payment whose invoice keeps moving under it is never answered done with nothing recorded: it throws after a few reads (the provider retries)', async () => {
      const run = ports(
        bolePix,
        undefined,
        Array.from({ length: 10 }, () => false),
      );
      await expect(applyNotification(run.ports, paid({ txid }, at), now)).rejects.toBeInstanceOf(PaymentRaceError);
      expect(run.commits).toHaveLength(5);
    });

    it('after a move to PAID the rails hook runs once with the reference; a plain Pix invoice never calls it', async () => {
      const calls: string[] = [];
      const run = ports(bolePix);
      const hooked = { ...run.ports, railsMoved: async (reference: string) => void calls.push(reference) };
      expect(await applyNotification(hooked, paid({ reference: bolePix.reference }, at), now)).toBe(true);
      expect(calls).toEqual([bolePix.reference]);
      const plain = ports(invoice);
      expect(await applyNotification({ ...plain.ports, railsMoved: async (reference: string) => void calls.push(reference) }, notification('paid'), now)).toBe(
        true,
      );
      expect(calls).toEqual([bolePix.reference]);
    });
  });

  it('finds a Pix charge by its txid', async () => {
    const run = ports(invoice);
    const byTxid = { ...notification('paid'), target: { txid: invoice.pix?.txid ?? '' } };
    expect(await applyNotification(run.ports, byTxid, now)).toBe(true);
  });

  it('a payment of a canceled, never-paid invoice pays it, flagged; one paid before is never credited again', async () => {
    const run = ports({ ...invoice, status: 'CANCELED', canceledAt: at });
    expect(await applyNotification(run.ports, notification('paid'), now)).toBe(true);
    const changes = run.commits[0] ?? [];
    expect(changes[0]).toMatchObject({ kind: 'invoice.moved', move: { from: 'CANCELED', to: 'PAID', paidAfterCancel: true } });
    expect(changes[1]).toMatchObject({ entries: [{ description: 'Payment of INV-AAAAAA (pix), after the invoice was canceled' }] });
    expect(eventOf(changes[2])?.data).toMatchObject({ invoice: { paid_after_cancel: true } });
    const paidBefore = ports({ ...invoice, status: 'CANCELED', paidAt: at });
    expect(await applyNotification(paidBefore.ports, notification('paid'), now)).toBe(false);
    expect(paidBefore.commits).toEqual([]);
  });

  it('a refund takes the total back out; a cancellation of a PENDING invoice moves no money', async () => {
    const refunded = ports({ ...invoice, status: 'PAID', paidAt: at });
    await applyNotification(refunded.ports, notification('refunded'), now);
    expect((refunded.commits[0] ?? [])[1]).toMatchObject({ kind: 'ledger.transfer', entries: [{ type: 'refund', availableCents: -2_500 }] });
    const canceled = ports(invoice);
    await applyNotification(canceled.ports, notification('canceled'), now);
    expect((canceled.commits[0] ?? []).map((c) => c.kind)).toEqual(['invoice.moved', 'event.recorded']);
  });

  it('changes nothing for an unknown charge, a move not allowed, or one already made (the commit found it moved)', async () => {
    const unknown = ports(undefined);
    expect(await applyNotification(unknown.ports, notification('paid'), now)).toBe(false);
    const refunded = ports({ ...invoice, status: 'REFUNDED' });
    expect(await applyNotification(refunded.ports, notification('paid'), now)).toBe(false);
    expect([...unknown.commits, ...refunded.commits]).toEqual([]);
    // The same payment committed by a duplicate between the read and the commit: read again, nothing left to do.
    const raced = ports([invoice, { ...invoice, status: 'PAID', paidAt: at, paidRail: 'pix' }], undefined, [false]);
    expect(await applyNotification(raced.ports, notification('paid'), now)).toBe(false);
    expect(raced.commits).toHaveLength(1);
    expect(raced.reads()).toBe(2);
    // A cancellation that lost its move found the invoice moved: it is not tried again on what it did not see.
    const canceled = ports([invoice, { ...invoice, status: 'PAID', paidAt: at }], undefined, [false]);
    expect(await applyNotification(canceled.ports, notification('canceled'), now)).toBe(false);
    expect(canceled.commits).toHaveLength(1);
  });

  it('a notification dated before its charge was created (past five minutes of clock skew) is refused, nothing committed (issue 43)', async () => {
    const created = Date.parse(invoice.createdAt);
    const early = (ms: number): ChargeNotification => ({ ...notification('paid'), occurredAt: new Date(created - ms) });
    const run = ports(invoice);
    await expect(applyNotification(run.ports, early(5 * 60_000 + 1_000), now)).rejects.toMatchObject({ code: 'occurred_before_charge' });
    expect(run.commits).toEqual([]);
    // Within the skew: applied.
    expect(await applyNotification(run.ports, early(60_000), now)).toBe(true);
  });
});

describe('the checkout behind an invoice moves in the same commit', () => {
  const ofCheckout = { ...invoice, checkoutReference: checkout.reference };

  it('paying the invoice pays a payable checkout and records order.paid', async () => {
    const run = ports(ofCheckout, checkout);
    await applyNotification(run.ports, notification('paid'), now);
    const changes = run.commits[0] ?? [];
    expect(changes.map((c) => c.kind)).toEqual(['invoice.moved', 'ledger.transfer', 'event.recorded', 'checkout.paid', 'event.recorded']);
    // No card attempt held: the checkout is paid on condition that none was recorded meanwhile.
    expect(changes[3]).toEqual({
      kind: 'checkout.paid',
      reference: checkout.reference,
      payment: { paymentType: 'pix', invoiceReference: 'INV-AAAAAA', paidAt: at },
      lostRace: 'read_again',
      cardAttempt: 'none',
    });
    expect(eventOf(changes[4])).toMatchObject({
      type: 'order.paid',
      data: { order: { reference: checkout.reference, status: 'PAID', invoice_reference: 'INV-AAAAAA', paid_at: at } },
    });
  });

  it('a checkout paid by another payment already: the invoice is paid on its own (no checkout change)', async () => {
    const run = ports(ofCheckout, { ...checkout, status: 'PAID', invoiceReference: 'INV-OTHER1', orderStatus: 'PAID', paidAt: at });
    await applyNotification(run.ports, notification('paid'), now);
    expect((run.commits[0] ?? []).map((c) => c.kind)).toEqual(['invoice.moved', 'ledger.transfer', 'event.recorded']);
  });

  it('refunding or canceling the invoice behind the order moves the order; another invoice of the checkout does not', async () => {
    const paid: Checkout = { ...checkout, status: 'PAID', invoiceReference: 'INV-AAAAAA', orderStatus: 'PAID', paidAt: at };
    for (const [kind, to, type] of [
      ['refunded', 'REFUNDED', 'order.refunded'],
      ['canceled', 'CANCELED', 'order.canceled'],
    ] as const) {
      const run = ports({ ...ofCheckout, status: 'PAID', paidAt: at }, paid);
      await applyNotification(run.ports, notification(kind), now);
      const changes = run.commits[0] ?? [];
      expect(changes.at(-2)).toEqual({
        kind: 'order.moved',
        checkoutReference: checkout.reference,
        invoiceReference: 'INV-AAAAAA',
        from: 'PAID',
        to,
        version: 2,
        at,
      });
      expect(eventOf(changes.at(-1))).toMatchObject({ type, data: { order: { status: to, paid_at: at } } });
    }
    const other = ports({ ...ofCheckout, reference: 'INV-BBBBBB', status: 'PAID', paidAt: at }, paid);
    await applyNotification(other.ports, { ...notification('refunded'), target: { reference: 'INV-BBBBBB' } }, now);
    expect((other.commits[0] ?? []).map((c) => c.kind)).toEqual(['invoice.moved', 'ledger.transfer', 'event.recorded']);
    const moved = ports({ ...ofCheckout, status: 'PAID', paidAt: at }, { ...paid, orderStatus: 'REFUNDED' });
    await applyNotification(moved.ports, notification('canceled'), now);
    expect((moved.commits[0] ?? []).map((c) => c.kind)).not.toContain('order.moved');
  });

  it('the Pix charge of an unpaid Pix-only checkout closes: the checkout is abandoned; one that offers the card stays open', async () => {
    const pixOnly = ports(ofCheckout, checkout);
    await applyNotification(pixOnly.ports, notification('canceled'), now);
    expect((pixOnly.commits[0] ?? []).at(-1)).toEqual({ kind: 'checkout.abandoned', reference: checkout.reference, at });
    const withCard = ports(ofCheckout, { ...checkout, methods: ['pix', 'card'] });
    await applyNotification(withCard.ports, notification('canceled'), now);
    expect((withCard.commits[0] ?? []).map((c) => c.kind)).toEqual(['invoice.moved', 'event.recorded']);
  });

  it('the checkout changed under the commit: read again and applied anew, at most three times', async () => {
    const run = ports(ofCheckout, checkout, [new CheckoutChangedError(), true]);
    expect(await applyNotification(run.ports, notification('paid'), now)).toBe(true);
    expect(run.commits).toHaveLength(2);
    expect(run.reads()).toBe(2);
    const stuck = ports(ofCheckout, checkout, [new CheckoutChangedError(), new CheckoutChangedError(), new CheckoutChangedError()]);
    await expect(applyNotification(stuck.ports, notification('paid'), now)).rejects.toBeInstanceOf(CheckoutChangedError);
    expect(stuck.commits).toHaveLength(3);
  });
});

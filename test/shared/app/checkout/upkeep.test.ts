import { describe, expect, it } from 'vitest';
import { checkoutUpkeep, type UpkeepPorts } from '../../../../shared/app/checkout/upkeep';
import type { Change, OutboxEvent } from '../../../../shared/domain/changes';
import type { Checkout, UnknownCardAttempt } from '../../../../shared/domain/checkout';
import type { CardAuthorizationStatus, PaymentProvider } from '../../../../shared/ports/payment-provider';
import { aCheckout } from '../../../support/records';

/**
 * The checkout upkeep and the card attempts checkouts hold (issue 44): one a card form recorded with its
 * claim and never finished (its invocation killed mid-call), and one a checkout paid by Pix still holds.
 */

const now = new Date('2026-11-27T13:00:00.000Z');
const attempt = (at: string): UnknownCardAttempt => ({ providerKey: 'key_att_0', brand: 'visa', last4: '1111', installments: 1, holder: 'ANA SILVA', at });
/** Sent a minute ago: past the grace (2 × the provider's timeout of 1 s). */
const sentLongAgo = attempt('2026-11-27T12:59:00.000Z');
/** Sent just now: within the grace, the provider may still be processing it. */
const sentJustNow = attempt('2026-11-27T12:59:59.500Z');

/** One checkout in the upkeep's UNKNOWN partition; a provider that answers `status` and records its voids. */
function world(checkout: Checkout, status: CardAuthorizationStatus) {
  const commits: Change[][] = [];
  const asked: string[] = [];
  const voided: string[] = [];
  const provider = {
    name: 'simulated',
    cardAuthorizationStatus: async (key: string) => {
      asked.push(key);
      return status;
    },
    voidCard: async (request: { transactionId: string }) => {
      voided.push(request.transactionId);
    },
  } as unknown as PaymentProvider;
  const ports = {
    accounts: { get: async () => undefined },
    checkouts: { get: async (reference: string) => (reference === checkout.reference ? checkout : undefined) },
    invoices: { byReference: async () => undefined },
    ids: { unused: async () => ({ invoiceId: 7, reference: 'INV-CARD01' }) },
    provider,
    timeoutMs: 1_000,
    idempotencyKey: async () => Buffer.alloc(32),
    newEvent: (type: string, data: Record<string, unknown>): OutboxEvent => ({ id: `evt_${type}`, type, created: 1, api_version: 'v', data }),
    commit: async (changes: readonly Change[]) => {
      commits.push([...changes]);
    },
    index: {
      openPartitions: [],
      unknownPartitions: ['CHKUNK#0'],
      references: async (partition: string) => (partition === 'CHKUNK#0' ? [checkout.reference] : []),
    },
    cardAttempts: { attempts: { unknownPartitions: [], unknownIn: async () => [], staleOpenIn: async () => [] }, timeoutMs: 1_000 },
    ttlSeconds: 3_600,
    nowMs: () => 0,
  } as unknown as UpkeepPorts;
  return { ports, commits, asked, voided };
}

const kinds = (commits: Change[][]) => commits.map((changes) => changes.map((change) => change.kind));

describe('a card form attempt left in flight by a killed invocation (PENDING, its attempt recorded with the claim)', () => {
  const inFlight = aCheckout({ methods: ['pix', 'card'], unknownAttempt: sentLongAgo });

  it('approved at the provider: claimed, then recorded as the card form would have (card invoice, credit, checkout PAID, order.paid)', async () => {
    const run = world(inFlight, { outcome: 'approved', transactionId: 'tx_1', status: 1 });
    const outcome = await checkoutUpkeep(run.ports, now);
    expect(outcome).toMatchObject({ paid: 1, reopened: 0, cleared: 0, failed: 0 });
    expect(run.asked).toEqual(['key_att_0']);
    expect(kinds(run.commits)).toEqual([
      ['checkout.card_claimed'],
      ['invoice.created', 'ledger.transfer', 'event.recorded', 'checkout.paid', 'event.recorded'],
    ]);
    // The upkeep's claim records nothing more: the attempt is the one recorded.
    expect(run.commits[0]?.[0]).not.toHaveProperty('inFlight');
    expect(run.commits[1]?.find((change) => change.kind === 'invoice.created')).toMatchObject({
      invoice: { card: { transactionId: 'tx_1', last4: '1111' }, status: 'PAID' },
    });
    expect(run.voided).toEqual([]);
  });

  it('never received, past the grace: PENDING again at the next attempt (nothing charged)', async () => {
    const run = world(inFlight, { outcome: 'not_found' });
    expect(await checkoutUpkeep(run.ports, now)).toMatchObject({ paid: 0, reopened: 1, failed: 0 });
    expect(kinds(run.commits)).toEqual([['checkout.card_claimed'], ['checkout.card_reopened']]);
    expect(run.commits[1]?.[0]).toMatchObject({ kind: 'checkout.card_reopened', declined: false });
  });

  it('never received yet, within the grace: waits for the next run', async () => {
    const run = world(aCheckout({ methods: ['pix', 'card'], unknownAttempt: sentJustNow }), { outcome: 'not_found' });
    expect(await checkoutUpkeep(run.ports, now)).toMatchObject({ waiting: 1, reopened: 0, paid: 0 });
    expect(kinds(run.commits)).toEqual([['checkout.card_claimed']]);
  });

  it('a PENDING checkout without an attempt is left alone (nothing asked)', async () => {
    const run = world(aCheckout({ methods: ['pix', 'card'] }), { outcome: 'approved', transactionId: 'tx_1', status: 1 });
    expect(await checkoutUpkeep(run.ports, now)).toMatchObject({ paid: 0, reopened: 0, waiting: 0, cleared: 0 });
    expect(run.asked).toEqual([]);
    expect(run.commits).toEqual([]);
  });
});

describe('a checkout paid by Pix while a card attempt was held (in flight or its answer lost)', () => {
  const paidByPix = aCheckout({ methods: ['pix', 'card'], status: 'PAID', paymentType: 'pix', invoiceReference: 'INV-AAAAAA', unknownAttempt: sentLongAgo });

  it('approved at the provider: voided (recorded nowhere), then cleared from the checkout', async () => {
    const run = world(paidByPix, { outcome: 'approved', transactionId: 'tx_9', status: 1 });
    expect(await checkoutUpkeep(run.ports, now)).toMatchObject({ cleared: 1, paid: 0, failed: 0 });
    expect(run.voided).toEqual(['tx_9']);
    expect(run.commits).toEqual([[{ kind: 'checkout.card_attempt_cleared', reference: paidByPix.reference, providerKey: 'key_att_0' }]]);
  });

  it('declined, or never received past the grace: cleared, nothing voided', async () => {
    for (const status of [{ outcome: 'declined' }, { outcome: 'not_found' }] as const) {
      const run = world(paidByPix, status);
      expect(await checkoutUpkeep(run.ports, now)).toMatchObject({ cleared: 1 });
      expect(run.voided).toEqual([]);
      expect(kinds(run.commits)).toEqual([['checkout.card_attempt_cleared']]);
    }
  });

  it('never received yet, within the grace: waits (the provider may still authorize it)', async () => {
    const run = world({ ...paidByPix, unknownAttempt: sentJustNow }, { outcome: 'not_found' });
    expect(await checkoutUpkeep(run.ports, now)).toMatchObject({ waiting: 1, cleared: 0 });
    expect(run.commits).toEqual([]);
  });

  it('a paid checkout with no attempt is left alone', async () => {
    const run = world({ ...paidByPix, unknownAttempt: undefined }, { outcome: 'approved', transactionId: 'tx_9', status: 1 });
    expect(await checkoutUpkeep(run.ports, now)).toMatchObject({ cleared: 0, waiting: 0 });
    expect(run.asked).toEqual([]);
  });
});

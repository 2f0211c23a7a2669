import { describe, expect, it } from 'vitest';
import { type CardChargeBody, type CardChargePorts, createCardCharge } from '../../../../shared/app/charges/create-card-charge';
import type { Caller } from '../../../../shared/domain/account';
import type { CardAttempt } from '../../../../shared/domain/card-attempt';
import type { Change, OutboxEvent } from '../../../../shared/domain/changes';
import { BadRequestError, CardDeclinesExceededError, CardOutcomeUnknownError, UpstreamError } from '../../../../shared/domain/errors';
import { memoryAttemptSlots } from '../../../support/attempt-slots';
import { type CardAuthorization, type PaymentProvider, ProviderError } from '../../../../shared/ports/payment-provider';

const now = new Date('2026-11-27T12:00:00.000Z');
const caller: Caller = {
  accountId: 'acct_1',
  keyVersion: 1,
  account: { accountId: 'acct_1', name: 'Loja', methods: ['card'], webhookSecretConfigured: false, disabled: false },
};
const body: CardChargeBody = {
  invoice_no: 'N1',
  item_name: 'Camiseta',
  quantity: 1,
  amount: 25,
  tax: 0,
  discount: 0,
  due_date: '2026-11-27',
  email: 'ana@example.com',
  installments: 1,
  creditcard_holder: 'ANA SILVA',
  creditcard_number: '4111111111111111',
  creditcard_cvv: '123',
  creditcard_month: 12,
  creditcard_year: 2030,
  creditcard_brand: 'visa',
};

/** Ports over an empty table and a provider answering `answer` (an Error: it fails; `held`: what asking it again says). */
function ports(answer: CardAuthorization | Error, held?: Awaited<ReturnType<PaymentProvider['cardAuthorizationStatus']>> | Error) {
  const committed: (readonly Change[])[] = [];
  const attempts = new Map<string, CardAttempt>();
  const slots = memoryAttemptSlots();
  let asked = 0;
  const provider = {
    name: 'simulated',
    charges: {
      card: async () => {
        asked += 1;
        if (answer instanceof Error) throw answer;
        return answer;
      },
    },
    cardAuthorizationStatus: async () => {
      if (held === undefined || held instanceof Error) throw held ?? new Error('not asked');
      return held;
    },
    voidCard: async () => undefined,
  } as unknown as PaymentProvider;
  const run: CardChargePorts = {
    invoices: { byReference: async () => undefined, byTxid: async () => undefined },
    checkouts: { get: async () => undefined },
    newEvent: (type, data): OutboxEvent => ({ id: 'evt_1', type, created: 1, api_version: 'v', data }),
    commitMove: async () => true,
    attempts: {
      read: async (key) => attempts.get(key),
      open: async (key, fresh) => {
        const attempt: CardAttempt = { key, ...fresh, providerKey: 'pk1', status: 'OPEN' };
        attempts.set(key, attempt);
        return attempt;
      },
      renewProviderKey: async (attempt) => attempt,
      drop: async (attempt) => void attempts.delete(attempt.key),
      closeUnknown: async () => undefined,
      recordTransaction: async () => undefined,
      unknownPartitions: [],
      unknownIn: async () => [],
      staleOpenIn: async () => [],
    },
    providerNamed: () => provider,
    timeoutMs: 1_000,
    ids: { unused: async () => ({ invoiceId: 42, reference: 'INV-CARD01' }) },
    slots,
    declineLimits: { perCardPerHour: 2, perMerchantPerHour: 50 },
    provider,
    idempotencyKey: async () => Buffer.alloc(32, 1),
    commit: async (changes) => void committed.push(changes),
  };
  /** The slot ids held in each log, by kind. */
  const inLog = (kind: 'card' | 'merchant') =>
    [...slots.store.logs.entries()].filter(([key]) => key.startsWith(`${kind}#`)).flatMap(([, log]) => Object.keys(log));
  return { run, committed, attempts, inLog, asked: () => asked };
}

describe('create a card charge (use case)', () => {
  it('approved: the PAID invoice, the credit, invoice.paid and the attempt RECORDED, for the route’s one transaction; its slot given back', async () => {
    const { run, committed, inLog } = ports({ outcome: 'approved', transactionId: 'T1', status: 1, message: 'Approved' });
    const result = await createCardCharge(run, { caller, body, idempotencyKey: 'k1', now });
    expect(result.answer.invoice).toMatchObject({ reference: 'INV-CARD01', total: '25.00', status: 'PAID', transaction: { id: 'T1', amount: '25.00' } });
    expect(result.changes.map((c) => c.kind)).toEqual(['invoice.created', 'ledger.transfer', 'event.recorded', 'card_attempt.recorded']);
    expect(result.changes[0]).toMatchObject({ invoice: { status: 'PAID', card: { last4: '1111', transactionId: 'T1' }, provider: 'simulated' } });
    expect(JSON.stringify(result.changes)).not.toContain('4111111111111111');
    expect(result.compensate).toBeTypeOf('function');
    expect(committed).toEqual([]);
    expect(inLog('card')).toEqual([]);
    expect(inLog('merchant')).toEqual([]);
  });

  it('declined: 400, its slot kept in the card’s and the merchant’s logs, and the attempt dropped (a retry asks anew, with a slot of its own); at the cap the next is refused unasked', async () => {
    const { run, committed, attempts, inLog, asked } = ports({ outcome: 'declined', message: 'Insufficient funds' });
    await expect(createCardCharge(run, { caller, body, idempotencyKey: 'k1', now })).rejects.toBeInstanceOf(BadRequestError);
    expect(committed).toEqual([]);
    expect(attempts.size).toBe(0);
    expect(inLog('card')).toEqual(['INV-CARD01']);
    expect(inLog('merchant')).toEqual(['INV-CARD01']);
    // The retry opens a new attempt (new ids): a second slot.
    run.ids.unused = async () => ({ invoiceId: 43, reference: 'INV-CARD02' });
    await expect(createCardCharge(run, { caller, body, idempotencyKey: 'k1', now })).rejects.toBeInstanceOf(BadRequestError);
    expect(inLog('card')).toEqual(['INV-CARD01', 'INV-CARD02']);
    run.ids.unused = async () => ({ invoiceId: 44, reference: 'INV-CARD03' });
    const refused = createCardCharge(run, { caller, body, idempotencyKey: 'k2', now });
    await expect(refused).rejects.toBeInstanceOf(CardDeclinesExceededError);
    await expect(refused).rejects.toMatchObject({ details: { retryAfterSeconds: 3600 } });
    expect(asked()).toBe(2);
  });

  it('a retry of an attempt still OPEN (the first request died after taking its slot) is admitted for its own slot at a full cap, and takes no second', async () => {
    const { run, attempts, inLog } = ports(new TypeError('the function died'));
    run.declineLimits = { perCardPerHour: 1, perMerchantPerHour: 50 };
    await expect(createCardCharge(run, { caller, body, idempotencyKey: 'k1', now })).rejects.toBeInstanceOf(TypeError);
    expect([...attempts.values()].map((a) => a.status)).toEqual(['OPEN']);
    expect(inLog('card')).toEqual(['INV-CARD01']);
    // Another charge of the card is refused unasked: the card's log is full.
    run.ids.unused = async () => ({ invoiceId: 43, reference: 'INV-CARD02' });
    await expect(createCardCharge(run, { caller, body: { ...body, amount: 30 }, idempotencyKey: 'k2', now })).rejects.toBeInstanceOf(CardDeclinesExceededError);
    // The same charge again (its Idempotency-Key): admitted for its own slot, no second one; approved, the slot given back.
    (run.provider.charges as { card: PaymentProvider['charges']['card'] }).card = async () => ({
      outcome: 'approved',
      transactionId: 'T1',
      status: 1,
      message: 'Approved',
    });
    const retried = await createCardCharge(run, { caller, body, idempotencyKey: 'k1', now: new Date(now.getTime() + 1000) });
    expect(retried.answer.invoice).toMatchObject({ reference: 'INV-CARD01', status: 'PAID' });
    expect(inLog('card')).toEqual([]);
  });

  it('no answer and the provider cannot be asked: the invoice PENDING and the attempt UNKNOWN, committed now; 502 card_outcome_unknown; the slot kept', async () => {
    const { run, committed, inLog } = ports(new ProviderError('down'), new Error('still down'));
    await expect(createCardCharge(run, { caller, body, idempotencyKey: 'k1', now })).rejects.toBeInstanceOf(CardOutcomeUnknownError);
    expect(committed).toHaveLength(1);
    expect(committed[0]?.map((c) => c.kind)).toEqual(['invoice.created', 'card_attempt.unknown']);
    expect(committed[0]?.[0]).toMatchObject({ invoice: { status: 'PENDING', reference: 'INV-CARD01' } });
    expect(inLog('card')).toEqual(['INV-CARD01']);
  });

  it('the provider failed and holds nothing under the key (verified, nothing charged): 502, and the slot given back', async () => {
    const { run, inLog } = ports(new ProviderError('down'), { outcome: 'not_found' });
    await expect(createCardCharge(run, { caller, body, idempotencyKey: 'k1', now })).rejects.toBeInstanceOf(UpstreamError);
    expect(inLog('card')).toEqual([]);
    expect(inLog('merchant')).toEqual([]);
  });
});

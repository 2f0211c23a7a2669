import { describe, expect, it } from 'vitest';
import { type CardChargeBody, type CardChargePorts, createCardCharge } from '../../../../shared/app/charges/create-card-charge';
import type { Caller } from '../../../../shared/domain/account';
import type { CardAttempt } from '../../../../shared/domain/card-attempt';
import type { Change, OutboxEvent } from '../../../../shared/domain/changes';
import { BadRequestError, CardOutcomeUnknownError } from '../../../../shared/errors';
import { type CardAuthorization, type PaymentProvider, ProviderError } from '../../../../shared/providers/port';

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
  const provider = {
    name: 'simulated',
    charges: {
      card: async () => {
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
    },
    providerNamed: () => provider,
    timeoutMs: 1_000,
    ids: { unused: async () => ({ invoiceId: 42, reference: 'INV-CARD01' }) },
    declines: { read: async () => ({ card: undefined, merchant: undefined }) },
    declineLimits: { perCardPerHour: 5, perMerchantPerHour: 50 },
    provider,
    idempotencyKey: async () => Buffer.alloc(32, 1),
    commit: async (changes) => void committed.push(changes),
  };
  return { run, committed, attempts };
}

describe('create a card charge (use case)', () => {
  it('approved: the PAID invoice, the credit, invoice.paid and the attempt RECORDED, for the route’s one transaction', async () => {
    const { run, committed } = ports({ outcome: 'approved', transactionId: 'T1', status: 1, message: 'Approved' });
    const result = await createCardCharge(run, { caller, body, idempotencyKey: 'k1', now });
    expect(result.answer.invoice).toMatchObject({ reference: 'INV-CARD01', total: '25.00', status: 'PAID', transaction: { id: 'T1', amount: '25.00' } });
    expect(result.changes.map((c) => c.kind)).toEqual(['invoice.created', 'ledger.transfer', 'event.recorded', 'card_attempt.recorded']);
    expect(result.changes[0]).toMatchObject({ invoice: { status: 'PAID', card: { last4: '1111', transactionId: 'T1' }, provider: 'simulated' } });
    expect(JSON.stringify(result.changes)).not.toContain('4111111111111111');
    expect(result.compensate).toBeTypeOf('function');
    expect(committed).toEqual([]);
  });

  it('declined: 400, one decline counted at once, and the attempt dropped (a retry asks anew)', async () => {
    const { run, committed, attempts } = ports({ outcome: 'declined', message: 'Insufficient funds' });
    await expect(createCardCharge(run, { caller, body, idempotencyKey: 'k1', now })).rejects.toBeInstanceOf(BadRequestError);
    expect(committed).toEqual([
      [{ kind: 'card.declined', scope: expect.objectContaining({ accountId: 'acct_1' }), logs: { card: undefined, merchant: undefined }, limits: run.declineLimits, at: now.toISOString() }],
    ]);
    expect(attempts.size).toBe(0);
  });

  it('no answer and the provider cannot be asked: the invoice PENDING and the attempt UNKNOWN, committed now; 502 card_outcome_unknown', async () => {
    const { run, committed } = ports(new ProviderError('down'), new Error('still down'));
    await expect(createCardCharge(run, { caller, body, idempotencyKey: 'k1', now })).rejects.toBeInstanceOf(CardOutcomeUnknownError);
    expect(committed).toHaveLength(1);
    expect(committed[0]?.map((c) => c.kind)).toEqual(['invoice.created', 'card_attempt.unknown']);
    expect(committed[0]?.[0]).toMatchObject({ invoice: { status: 'PENDING', reference: 'INV-CARD01' } });
  });
});

import { describe, expect, it } from 'vitest';
import { CHANGE_ACCESS, changeGrants, KEY, type TableGrant } from '../../../../shared/adapters/dynamo/access';
import { cardAttemptCompilers } from '../../../../shared/adapters/dynamo/card-attempts';
import { cepCompilers } from '../../../../shared/adapters/dynamo/cep-cache';
import { type ChangeCompilers, type ChangeOf, changeWrites, eventCompilers, mergeCompilers } from '../../../../shared/adapters/dynamo/changes';
import { checkoutCompilers } from '../../../../shared/adapters/dynamo/checkout-settle';
import { customerCompilers } from '../../../../shared/adapters/dynamo/customers';
import { accountCompilers } from '../../../../shared/adapters/dynamo/accounts';
import { invoiceCreatedCompilers, invoiceMovedCompilers } from '../../../../shared/adapters/dynamo/invoices';
import { ledgerCompilers } from '../../../../shared/adapters/dynamo/ledger';
import type { TxWrite } from '../../../../shared/adapters/dynamo/transact';
import { webhookCompilers } from '../../../../shared/adapters/dynamo/webhooks';
import { panelCompilers } from '../../../../shared/adapters/dynamo/panel-people';
import { withdrawalCompilers } from '../../../../shared/adapters/dynamo/withdrawals';
import type { ChangeKind } from '../../../../shared/domain/changes';
import { invoiceMove } from '../../../../shared/domain/invoice-transitions';
import { paymentCredit, withdrawalHold } from '../../../../shared/domain/ledger';
import { aCardAttempt, aCheckout, aCustomer, aNewInvoice, anInvoice, aWithdrawal, RECORD_TIME as at } from '../../../support/records';

const context = {
  table: 't',
  keys: async () => ({ personalData: Buffer.alloc(32, 1), webhookSecrets: Buffer.alloc(32, 2) }),
  scope: { id: 'Test', changes: Object.keys(CHANGE_ACCESS) as ChangeKind[] },
};

/** Every room's compilers: what any route or worker may hand over. */
const ALL: ChangeCompilers = mergeCompilers(
  accountCompilers,
  ledgerCompilers,
  eventCompilers,
  withdrawalCompilers,
  webhookCompilers,
  customerCompilers,
  invoiceCreatedCompilers,
  invoiceMovedCompilers,
  checkoutCompilers,
  cepCompilers,
  cardAttemptCompilers,
  panelCompilers,
);

const move = invoiceMove('PENDING', 'PAID');
if (!move) throw new Error('PENDING → PAID is a move');
const movement = { accountId: 'acct_1', reference: 'WD-ABCDEFGHJKLM', description: 'Withdrawal', at };

/** Changes of every kind, each in the shapes that write the most (the type asks for every kind). */
const SAMPLES: { [K in ChangeKind]: ChangeOf<K>[] } = {
  'ledger.transfer': [
    paymentCredit({ accountId: 'acct_1', reference: 'INV-AAAAAA', description: 'Payment', at }, 2_500, 'pix'),
    withdrawalHold(movement, 1_000, 100, {
      takes: [
        { shard: 0, cents: 600 },
        { shard: 1, cents: 600 },
      ],
      fills: [{ shard: 2, cents: 100 }],
    }),
  ],
  'withdrawal.created': [{ kind: 'withdrawal.created', withdrawal: aWithdrawal({ document: '12345678909' }) }],
  'withdrawal.moved': [{ kind: 'withdrawal.moved', reference: 'WD-ABCDEFGHJKLM', from: 'PENDING', to: 'PAID', version: 2, at, endToEndId: 'E1' }],
  'event.recorded': [{ kind: 'event.recorded', accountId: 'acct_1', event: { id: 'evt_1', type: 'invoice.paid', created: 1, api_version: 'v', data: {} } }],
  'webhook.configured': [
    { kind: 'webhook.configured', accountId: 'acct_1', url: 'https://shop.example/hook', at, newSecret: 'whsec_x' },
    { kind: 'webhook.configured', accountId: 'acct_1', url: 'https://shop.example/hook', at },
  ],
  'webhook.secret_rotated': [{ kind: 'webhook.secret_rotated', accountId: 'acct_1', secret: 'whsec_y', at }],
  'checkout_signing.set': [
    { kind: 'checkout_signing.set', accountId: 'acct_1', required: true, version: 2, previousVersion: 1, issued: true },
    { kind: 'checkout_signing.set', accountId: 'acct_1', required: false, version: 1, previousVersion: 1, issued: false },
  ],
  'webhook.redelivery_requested': [
    { kind: 'webhook.redelivery_requested', accountId: 'acct_1', eventId: 'evt_1', at, reopen: { status: 'failed', attempts: 8 } },
    { kind: 'webhook.redelivery_requested', accountId: 'acct_1', eventId: 'evt_1', at },
  ],
  'panel.audited': [
    {
      kind: 'panel.audited',
      entry: { accountId: 'acct_1', at, entryId: 'aud_1', personId: 'per_1', email: 'ana@example.com', action: 'webhook.configured', ip: '203.0.113.7' },
    },
  ],
  'customer.created': [{ kind: 'customer.created', customer: aCustomer() }],
  'invoice.created': [{ kind: 'invoice.created', invoice: aNewInvoice({ payer: { name: 'Ana', document: '12345678909' } }) }],
  'invoice.moved': [
    { kind: 'invoice.moved', invoice: anInvoice({ awaitsPixLookup: true, unlisted: true }), move, at },
    { kind: 'invoice.moved', invoice: anInvoice(), move, at },
    {
      kind: 'invoice.moved',
      invoice: anInvoice({ method: 'boleto', pix: { txid: 'INVAAAAAA00000000000000000000000', location: 'psp.example/cobv/1', copy: '000201' } }),
      move,
      at,
      payment: { rail: 'pix', amountCents: 2_550 },
    },
  ],
  'invoice.other_rail_paid': [
    {
      kind: 'invoice.other_rail_paid',
      invoice: anInvoice({
        method: 'boleto',
        status: 'PAID',
        paidRail: 'pix',
        pix: { txid: 'INVAAAAAA00000000000000000000000', location: 'psp.example/cobv/1', copy: '000201' },
      }),
      rail: 'boleto',
      amountCents: 2_550,
      at,
    },
  ],
  'checkout.paid': [
    { kind: 'checkout.paid', reference: 'CHK-ABCDEFGH', payment: { paymentType: 'pix', invoiceReference: 'INV-AAAAAA', paidAt: at }, lostRace: 'read_again' },
    {
      kind: 'checkout.paid',
      reference: 'CHK-ABCDEFGH',
      payment: { paymentType: 'pix', invoiceReference: 'INV-AAAAAA', paidAt: at },
      lostRace: 'read_again',
      cardAttempt: { keep: 'key_1' },
    },
  ],
  'order.moved': [{ kind: 'order.moved', checkoutReference: 'CHK-ABCDEFGH', invoiceReference: 'INV-AAAAAA', from: 'PAID', to: 'REFUNDED', version: 2, at }],
  'checkout.abandoned': [
    { kind: 'checkout.abandoned', reference: 'CHK-ABCDEFGH', at, unlistInvoice: 'INV-AAAAAA' },
    { kind: 'checkout.abandoned', reference: 'CHK-ABCDEFGH', at },
  ],
  'cep.cached': [
    { kind: 'cep.cached', address: { zipcode: '01310100', state: 'SP', city: 'São Paulo', district: 'Bela Vista', street: 'Av. Paulista' }, expiresAt: 1 },
  ],
  'card_attempt.recorded': [{ kind: 'card_attempt.recorded', attempt: aCardAttempt() }],
  'card_attempt.unknown': [{ kind: 'card_attempt.unknown', attempt: aCardAttempt(), at }],
  'checkout.created': [
    { kind: 'checkout.created', checkout: aCheckout(), reservation: { kind: 'tx_ref' } },
    { kind: 'checkout.created', checkout: aCheckout(), reservation: { kind: 'sale', sale: 's'.repeat(32) } },
  ],
  'checkout.card_unclaimed': [{ kind: 'checkout.card_unclaimed', checkout: aCheckout({ methods: ['pix', 'card'] }), leaseId: 'lease_1' }],
  'checkout.card_claimed': [
    { kind: 'checkout.card_claimed', checkout: aCheckout({ methods: ['pix', 'card'] }), lease: { id: 'lease_1', untilMs: 2_000 }, nowMs: 1_000 },
    {
      kind: 'checkout.card_claimed',
      checkout: aCheckout({ methods: ['pix', 'card'] }),
      lease: { id: 'lease_1', untilMs: 2_000 },
      nowMs: 1_000,
      inFlight: { providerKey: 'key_1', brand: 'visa', last4: '1111', installments: 1, holder: 'Ana', at },
    },
  ],
  'checkout.card_attempt_cleared': [{ kind: 'checkout.card_attempt_cleared', reference: 'CHK-ABCDEFGH', providerKey: 'key_1' }],
  'checkout.card_lost': [
    {
      kind: 'checkout.card_lost',
      checkout: aCheckout({ methods: ['pix', 'card'] }),
      lost: { providerKey: 'p'.repeat(43), brand: 'visa', last4: '1111', installments: 1, holder: 'ANA SILVA', at },
    },
  ],
  'checkout.card_reopened': [
    { kind: 'checkout.card_reopened', checkout: aCheckout({ methods: ['pix', 'card'], status: 'UNKNOWN' }), declined: true },
    { kind: 'checkout.card_reopened', checkout: aCheckout({ methods: ['pix', 'card'] }), declined: false },
  ],
};

/** A write as the IAM action that authorizes it and the partition key it names. */
function asAccess(write: TxWrite): { action: string; pk: string } {
  if (write.Put) return { action: 'PutItem', pk: String(write.Put.Item?.PK) };
  if (write.Update) return { action: 'UpdateItem', pk: String(write.Update.Key?.PK) };
  if (write.Delete) return { action: 'DeleteItem', pk: String(write.Delete.Key?.PK) };
  if (write.ConditionCheck) return { action: 'ConditionCheckItem', pk: String(write.ConditionCheck.Key?.PK) };
  throw new Error('A write of no known kind');
}

const like = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
const covers = (grants: readonly TableGrant[], access: { action: string; pk: string }) =>
  grants.some(
    (grant) => grant.index === undefined && (grant.actions as readonly string[]).includes(access.action) && grant.keys.some((key) => like(key).test(access.pk)),
  );

describe('what each kind of change may write (the grants routes and workers derive from their changes)', () => {
  const kinds = Object.keys(SAMPLES) as ChangeKind[];

  it('has a row for every kind the compilers know, and a compiler for every row', () => {
    expect(kinds.sort()).toEqual((Object.keys(CHANGE_ACCESS) as ChangeKind[]).sort());
    expect(Object.keys(ALL).sort()).toEqual(kinds.sort());
  });

  it.each(Object.keys(SAMPLES) as ChangeKind[])('covers every write a %s change compiles to, and grants nothing it never writes', async (kind) => {
    const changes = SAMPLES[kind];
    const writes = (await changeWrites(context, changes, ALL)).map(asAccess);
    expect(writes.length).toBeGreaterThan(0);
    for (const write of writes) expect(covers(CHANGE_ACCESS[kind], write), `${kind}: ${write.action} ${write.pk}`).toBe(true);
    // Each action × key pattern of the row is used by one of the samples: the row is no wider than the writes.
    for (const grant of CHANGE_ACCESS[kind]) {
      for (const action of grant.actions) {
        for (const key of grant.keys) {
          expect(
            writes.some((write) => write.action === action && like(key).test(write.pk)),
            `${kind} grants ${action} ${key} but never does it`,
          ).toBe(true);
        }
      }
    }
  });

  it('gives a set of kinds the union of their rows, each once', () => {
    expect(changeGrants(['invoice.created', 'event.recorded', 'invoice.created'])).toEqual([
      { actions: ['PutItem'], keys: [KEY.invoice, KEY.invoiceId] },
      { actions: ['PutItem'], keys: [KEY.event] },
    ]);
    expect(changeGrants([])).toEqual([]);
  });
});

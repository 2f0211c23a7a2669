import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { identificarDataComNovoFator2025 } from '@mrmgomes/boleto-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { creditAccount } from '../../shared/adapters/dynamo/accounts';
import { lastPixDueDate } from '../../shared/domain/pix-expiration';
import { brazilDate } from '../../shared/domain/brazil-dates';
import type { Item } from '../../shared/adapters/dynamo/dynamo';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, bearer, call, newAccount, tokenFor } from '../support/api';
import { cardBody, common, createCharge, createCustomerWithAddress } from '../support/charges';
import { enterCheckout, entryForm, merchantCheckout } from '../support/checkout';
import { availableBalance, eventsAbout, ledgerEntriesOf } from '../support/ledger';
import { notification, notify } from '../support/provider';

/**
 * Issue 17, items 1, 6 and 9 over HTTP against the local stack: boleto due dates the barcode cannot
 * carry (422 on due_date), a payment confirmed for a canceled invoice (credited once, PAID, flagged
 * paid_after_cancel, invoice.paid), and the withdrawal ceiling (amount + fee ≤ 99,999,999.99).
 */

/** The last day of the due-date factor cycle that began on 2025-02-22 (factor 9999). */
const LAST_ENCODABLE = '2049-10-13';

type InvoiceView = { status: string; paid_at: string | null; canceled_at: string | null; paid_after_cancel: boolean };

async function read(key: { PK: string; SK: string }): Promise<Item> {
  const store = accountStore();
  return (await store.db.send(new GetCommand({ TableName: store.table, Key: key, ConsistentRead: true }))).Item ?? {};
}

async function invoiceOf(auth: Record<string, string>, reference: string): Promise<InvoiceView> {
  const reply = await call('GET', `/api/invoice/ref/${reference}`, { headers: auth });
  expect(reply.status, reply.text).toBe(200);
  return (reply.json as { invoice: InvoiceView }).invoice;
}

/** The account's ledger entries about one reference, read straight from the table. */
async function ledgerEntries(accountId: string, reference: string): Promise<{ type: string; cents: number }[]> {
  return (await ledgerEntriesOf(accountId))
    .filter((item) => item.reference === reference)
    .map((item) => ({ type: String(item.entryType), cents: Number(item.amountCents) }));
}

async function freshAccount(feeCents = 0) {
  const account = await newAccount(undefined, feeCents);
  return { accountId: account.account_id, auth: bearer(await tokenFor(account)) };
}

describe('boleto due dates the barcode can carry (issue 17, item 1)', () => {
  let auth: Record<string, string>;
  let customer: number;

  beforeAll(async () => {
    ({ auth } = await freshAccount());
    customer = await createCustomerWithAddress(auth);
  });

  it(`accepts the last encodable day (${LAST_ENCODABLE}): its barcode and line read back as that date`, async () => {
    expect(brazilDate(new Date()) <= LAST_ENCODABLE).toBe(true);
    const reply = await createCharge('boleto', auth, { ...common({ due_date: LAST_ENCODABLE }), customer });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.invoice).toMatchObject({ due_date: LAST_ENCODABLE });
    const barcode = String(reply.invoice.barcode);
    expect(barcode.slice(5, 9)).toBe('9999');
    expect(identificarDataComNovoFator2025(barcode, 'CODIGO_DE_BARRAS').toISOString().slice(0, 10)).toBe(LAST_ENCODABLE);
    expect(identificarDataComNovoFator2025(String(reply.invoice.digitable), 'LINHA_DIGITAVEL').toISOString().slice(0, 10)).toBe(LAST_ENCODABLE);
  });

  it.each(['2049-10-14', '2049-12-31', '2100-01-01', '9999-12-31'])('answers 422 on due_date for %s, which would wrap to a past date', async (dueDate) => {
    const reply = await createCharge('boleto', auth, { ...common({ due_date: dueDate }), customer });
    expect(reply.status, reply.text).toBe(422);
    const body = reply.json as { error: Record<string, string[]> };
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error)).toEqual(['due_date']);
    expect(body.error.due_date).toEqual([expect.stringContaining(LAST_ENCODABLE)]);
  });

  it('still lets Pix charges fall due after the boleto limit (the factor is a boleto matter)', async () => {
    const reply = await createCharge('pix', auth, common({ due_date: '2049-12-31' }));
    expect(reply.status, reply.text).toBe(200);
  });

  it("refuses a Pix due date past what API Pix's int32 expiracao carries (422 on due_date naming the last day), before any provider is asked; accepts that day", async () => {
    const last = lastPixDueDate(new Date());
    for (const dueDate of ['2099-01-01', '9999-12-31']) {
      const reply = await createCharge('pix', auth, common({ due_date: dueDate }));
      expect(reply.status, reply.text).toBe(422);
      const body = reply.json as { error: Record<string, string[]> };
      expect(Object.keys(body.error)).toEqual(['due_date']);
      // The last day may move on by one while the test runs (near midnight): it is one of the two.
      expect(body.error.due_date?.[0]).toMatch(new RegExp(`^Must be (${last}|${lastPixDueDate(new Date())}) or earlier`));
    }
    // One day before the last (the last itself may slip past while the request runs, near the boundary).
    const dayBefore = new Date(Date.parse(`${last}T12:00:00.000Z`) - 86_400_000).toISOString().slice(0, 10);
    const accepted = await createCharge('pix', auth, common({ due_date: dayBefore }));
    expect(accepted.status, accepted.text).toBe(200);
  });
});

describe('a payment confirmed for a canceled invoice (issue 17, item 6)', () => {
  it('Pix: credited once, PAID with paid_after_cancel, invoice.paid flagged, a payment ledger entry; duplicates change nothing', async () => {
    const { accountId, auth } = await freshAccount();
    const pix = await createCharge('pix', auth, common({ amount: 40, quantity: 1, tax: 0, discount: 0 }));
    const reference = String(pix.invoice.reference);
    expect((await notify(notification('cancel', { reference }))).json).toEqual({ received: true, applied: true });
    expect(await invoiceOf(auth, reference)).toMatchObject({ status: 'CANCELED', paid_after_cancel: false, paid_at: null });

    const paid = await notify(notification('pix-paid', { txid: String(pix.invoice.txid) }));
    expect(paid.status, paid.text).toBe(200);
    expect(paid.json).toEqual({ received: true, applied: true });
    expect(await invoiceOf(auth, reference)).toMatchObject({
      status: 'PAID',
      paid_after_cancel: true,
      paid_at: expect.any(String),
      canceled_at: expect.any(String),
    });
    expect(await availableBalance(auth)).toBe('40.00');
    expect(await ledgerEntries(accountId, reference)).toEqual([{ type: 'payment', cents: 4000 }]);
    const events = await eventsAbout(accountId, reference);
    expect(events.map((event) => event.type).sort()).toEqual(['invoice.canceled', 'invoice.paid']);
    expect(events.find((event) => event.type === 'invoice.paid')?.data.invoice).toMatchObject({ reference, status: 'PAID', paid_after_cancel: true });
    expect(events.find((event) => event.type === 'invoice.canceled')?.data.invoice).toMatchObject({ paid_after_cancel: false });

    const duplicates = await Promise.all(Array.from({ length: 5 }, () => notify(notification('pix-paid', { txid: String(pix.invoice.txid) }))));
    expect(duplicates.map((reply) => reply.json)).toEqual(Array.from({ length: 5 }, () => ({ received: true, applied: false })));
    expect(await availableBalance(auth)).toBe('40.00');
    expect(await ledgerEntries(accountId, reference)).toHaveLength(1);
    expect(await eventsAbout(accountId, reference)).toHaveLength(2);
  });

  it('boleto: the same, and a refund afterwards reverses it like any paid invoice', async () => {
    const { accountId, auth } = await freshAccount();
    const customer = await createCustomerWithAddress(auth);
    const boleto = await createCharge('boleto', auth, { ...common({ amount: 25, quantity: 1, tax: 0, discount: 0 }), customer });
    const reference = String(boleto.invoice.reference);
    expect((await notify(notification('cancel', { reference }))).json).toEqual({ received: true, applied: true });
    expect((await notify(notification('boleto-paid', { reference }))).json).toEqual({ received: true, applied: true });
    expect(await invoiceOf(auth, reference)).toMatchObject({ status: 'PAID', paid_after_cancel: true });
    expect(await availableBalance(auth)).toBe('25.00');
    expect((await notify(notification('refund', { reference }))).json).toEqual({ received: true, applied: true });
    expect(await invoiceOf(auth, reference)).toMatchObject({ status: 'REFUNDED', paid_after_cancel: true });
    expect(await availableBalance(auth)).toBe('0.00');
    const refunded = (await eventsAbout(accountId, reference)).find((event) => event.type === 'invoice.refunded');
    expect(refunded?.data.invoice).toMatchObject({ status: 'REFUNDED', paid_after_cancel: true });
    // REFUNDED then paid again: ignored (a refund already returned the money once).
    expect((await notify(notification('boleto-paid', { reference }))).json).toEqual({ received: true, applied: false });
    expect(await availableBalance(auth)).toBe('0.00');
    expect((await ledgerEntries(accountId, reference)).map((entry) => entry.type).sort()).toEqual(['payment', 'refund']);
  });

  it('an invoice paid, then canceled (its payment reversed), is never credited again by a late or replayed payment', async () => {
    const { accountId, auth } = await freshAccount();
    const pix = await createCharge('pix', auth, common({ amount: 15, quantity: 1, tax: 0, discount: 0 }));
    const reference = String(pix.invoice.reference);
    const pay = notification('pix-paid', { txid: String(pix.invoice.txid) });
    expect((await notify(pay)).json).toEqual({ received: true, applied: true });
    expect((await notify(notification('cancel', { reference }))).json).toEqual({ received: true, applied: true });
    expect(await availableBalance(auth)).toBe('0.00');
    expect((await notify(pay)).json).toEqual({ received: true, applied: false });
    expect((await notify(notification('pix-paid', { txid: String(pix.invoice.txid) }))).json).toEqual({ received: true, applied: false });
    expect(await invoiceOf(auth, reference)).toMatchObject({ status: 'CANCELED', paid_after_cancel: false });
    expect(await availableBalance(auth)).toBe('0.00');
    expect((await ledgerEntries(accountId, reference)).map((entry) => entry.type).sort()).toEqual(['payment', 'refund']);
  });

  it('a canceled Pix of a hosted checkout, paid late: the invoice is PAID and flagged, and pays the still-open checkout in the same move', async () => {
    const account = await newAccount();
    const auth = bearer(await tokenFor(account));
    const form = entryForm(account);
    const { reply, page } = await enterCheckout(form);
    expect(reply.status, reply.text).toBe(303);
    const [, , checkoutReference = ''] = page.split('/');
    const pixReference = String((await read(keys.checkout(checkoutReference))).pixReference);
    const txid = String(((await read(keys.invoice(pixReference))).pix as { txid?: string } | undefined)?.txid);
    expect((await notify(notification('cancel', { reference: pixReference }))).json).toEqual({ received: true, applied: true });
    expect((await notify(notification('pix-paid', { txid }))).json).toEqual({ received: true, applied: true });
    expect(await invoiceOf(auth, pixReference)).toMatchObject({ status: 'PAID', paid_after_cancel: true });
    const checkout = await merchantCheckout(auth, form.tx_ref ?? '');
    expect(checkout.status, checkout.text).toBe(200);
    expect((checkout.json as { checkout: Record<string, unknown> }).checkout).toMatchObject({ status: 'PAID', payment_type: 'pix' });
    expect(await availableBalance(auth)).toBe('99.80');
  });
});

describe('the withdrawal ceiling (issue 17, item 9)', () => {
  let auth: Record<string, string>;

  async function withdraw(amount: number) {
    return call('POST', '/api/pixout/create', {
      headers: { ...auth, 'idempotency-key': `edge-${Date.now()}-${Math.random()}` },
      body: { amount, pixkey: 'ceiling@example.com', keytype: 'EMAIL' },
    });
  }

  beforeAll(async () => {
    const account = await newAccount(undefined, 150);
    // Enough balance for the largest withdrawal, so only the ceiling can refuse.
    await creditAccount(accountStore(), account.account_id, 20_000_000_000);
    auth = bearer(await tokenFor(account));
  });

  it.each([1_000_000_000, 100_000_000, 99_999_999.99, 9_999_999_999.99])('answers 422 on amount for %d and reserves nothing', async (amount) => {
    const before = await availableBalance(auth);
    const reply = await withdraw(amount);
    expect(reply.status, reply.text).toBe(422);
    expect(Object.keys((reply.json as { error: Record<string, unknown> }).error)).toEqual(['amount']);
    expect(await availableBalance(auth)).toBe(before);
  });

  it('accepts the largest amount whose amount + fee (1.50) is 99,999,999.99', async () => {
    const before = await availableBalance(auth);
    const reply = await withdraw(99_999_998.49);
    expect(reply.status, reply.text).toBe(200);
    expect((reply.json as { withdraw: { amount: string; fee: string } }).withdraw).toMatchObject({ amount: '99999998.49', fee: '1.50' });
    expect(Math.round((Number(before) - Number(await availableBalance(auth))) * 100)).toBe(9_999_999_999);
  });
});

describe('card totals up to what the networks carry (issue 30, item 2)', () => {
  it('charges a card for 999,999,999 × 1 (was 422) and × 10; past 9,999,999,999.99 it is 422 on amount', async () => {
    const { auth } = await freshAccount();
    const card = (overrides: Record<string, unknown>) =>
      call('POST', '/api/creditcard/create', { headers: auth, body: { ...cardBody(), ...common(overrides) } });
    const big = await card({ amount: 999_999_999, quantity: 1, tax: 0, discount: 0 });
    expect(big.status, big.text).toBe(200);
    expect((big.json as { invoice: { total: string; status: string } }).invoice).toMatchObject({ total: '999999999.00', status: 'PAID' });
    const ten = await card({ amount: 999_999_999, quantity: 10, tax: 0, discount: 0 });
    expect(ten.status, ten.text).toBe(200);
    expect((ten.json as { invoice: { total: string } }).invoice.total).toBe('9999999990.00');
    const over = await card({ amount: 999_999_999, quantity: 11, tax: 0, discount: 0 });
    expect(over.status).toBe(422);
    expect(over.json).toMatchObject({ error: { amount: [expect.stringContaining('9999999999.99')] } });
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { admin, bearer, call, newAccount, tokenFor } from '../support/api';
import { availableBalance, eventsAbout } from '../support/ledger';
import { cardBody, common, createCharge, createCustomerWithAddress } from '../support/charges';
import { notification, notify, providerSecret } from '../support/provider';
import { SIMULATED_SIGNATURE_HEADER } from '../../shared/adapters/providers/simulated';
import { signatureHeader } from '../../shared/domain/hmac-header';

let auth: Record<string, string>;
let accountId: string;

async function invoice(reference: string) {
  return (
    (await call('GET', `/api/invoice/ref/${reference}`, { headers: auth })).json as {
      invoice: { status: string; paid_at: string | null; refunded_at: string | null; canceled_at: string | null };
    }
  ).invoice;
}

describe('provider notifications: the payment confirmation', () => {
  beforeAll(async () => {
    const keys = await newAccount();
    accountId = keys.account_id;
    auth = bearer(await tokenFor(keys));
  });

  it('confirms a Pix payment by txid: PAID, balance credited, invoice.paid written; a duplicate changes nothing', async () => {
    const pix = await createCharge('pix', auth, common());
    const txid = String(pix.invoice.txid);
    const reference = String(pix.invoice.reference);
    expect((await invoice(reference)).status).toBe('PENDING');
    const first = await notify(notification('pix-paid', { txid }));
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ received: true, applied: true });
    expect(await invoice(reference)).toMatchObject({ status: 'PAID', paid_at: expect.any(String) });
    expect(await availableBalance(auth)).toBe('190.00');
    const duplicate = await notify(notification('pix-paid', { txid }));
    expect(duplicate.json).toEqual({ received: true, applied: false });
    expect(await availableBalance(auth)).toBe('190.00');
    expect((await eventsAbout(accountId, reference)).map((e) => e.type)).toEqual(['invoice.paid']);
  });

  it('50 identical notifications at once: one credit and one event', async () => {
    const keys = await newAccount();
    accountId = keys.account_id;
    auth = bearer(await tokenFor(keys));
    const pix = await createCharge('pix', auth, common({ amount: 10, quantity: 1, tax: 0, discount: 0 }));
    const same = notification('pix-paid', { txid: String(pix.invoice.txid) });
    const replies = await Promise.all(Array.from({ length: 50 }, () => notify(same)));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(replies.filter((r) => (r.json as { applied: boolean }).applied)).toHaveLength(1);
    expect(await availableBalance(auth)).toBe('10.00');
    expect(await eventsAbout(accountId, String(pix.invoice.reference))).toHaveLength(1);
  });

  it('moves by the one table: PENDING→CANCELED, PAID→REFUNDED and PAID→CANCELED (both debit the balance); any other move is ignored with 200', async () => {
    const keys = await newAccount();
    accountId = keys.account_id;
    auth = bearer(await tokenFor(keys));
    const customer = await createCustomerWithAddress(auth);
    const boleto = await createCharge('boleto', auth, { ...common({ amount: 50, quantity: 1, tax: 0, discount: 0 }), customer });
    const reference = String(boleto.invoice.reference);
    expect((await notify(notification('cancel', { reference }))).json).toEqual({ received: true, applied: true });
    expect(await invoice(reference)).toMatchObject({ status: 'CANCELED', canceled_at: expect.any(String) });
    expect((await notify(notification('refund', { reference }))).json).toEqual({ received: true, applied: false });
    expect(await availableBalance(auth)).toBe('0.00');

    const card = await createCharge('creditcard', auth, cardBody({ amount: 30, quantity: 1, tax: 0, discount: 0 }));
    const cardRef = String(card.invoice.reference);
    expect(await availableBalance(auth)).toBe('30.00');
    expect((await notify(notification('refund', { reference: cardRef }))).json).toEqual({ received: true, applied: true });
    expect((await notify(notification('cancel', { reference: cardRef }))).json).toEqual({ received: true, applied: false });
    expect(await invoice(cardRef)).toMatchObject({ status: 'REFUNDED', refunded_at: expect.any(String) });
    expect(await availableBalance(auth)).toBe('0.00');
    expect((await eventsAbout(accountId, cardRef)).map((e) => e.type).sort()).toEqual(['invoice.paid', 'invoice.refunded']);
    expect((await eventsAbout(accountId, reference)).map((e) => e.type)).toEqual(['invoice.canceled']);
    // A paid charge canceled by the provider (a card sale canceled by the acquirer): debited like a refund, invoice.canceled.
    const canceledCard = await createCharge('creditcard', auth, cardBody({ amount: 12, quantity: 1, tax: 0, discount: 0 }));
    const canceledRef = String(canceledCard.invoice.reference);
    expect(await availableBalance(auth)).toBe('12.00');
    expect((await notify(notification('cancel', { reference: canceledRef }))).json).toEqual({ received: true, applied: true });
    expect(await invoice(canceledRef)).toMatchObject({ status: 'CANCELED', canceled_at: expect.any(String) });
    expect(await availableBalance(auth)).toBe('0.00');
    expect((await notify(notification('refund', { reference: canceledRef }))).json).toEqual({ received: true, applied: false });
    expect((await eventsAbout(accountId, canceledRef)).map((e) => e.type).sort()).toEqual(['invoice.canceled', 'invoice.paid']);
    const boletoPaid = await createCharge('boleto', auth, { ...common({ amount: 20, quantity: 1, tax: 0, discount: 0 }), customer });
    expect((await notify(notification('boleto-paid', { reference: String(boletoPaid.invoice.reference) }))).json).toEqual({ received: true, applied: true });
    expect(await availableBalance(auth)).toBe('20.00');
  });

  it('refuses a bad or stale signature with 401 and changes nothing', async () => {
    const pix = await createCharge('pix', auth, common());
    const txid = String(pix.invoice.txid);
    const before = await availableBalance(auth);
    const forged = await notify(notification('pix-paid', { txid }), { secret: 'not-the-provider-secret-not-the-provider' });
    expect(forged.status).toBe(401);
    const unsigned = await call('POST', '/provider/simulated/notifications', { body: notification('pix-paid', { txid }) });
    expect(unsigned.status).toBe(401);
    const garbled = await notify(notification('pix-paid', { txid }), { body: '{"id":"x","type":"pix.paid"}' });
    expect(garbled.status).toBe(400);
    expect((await call('POST', '/provider/other/notifications', { body: {} })).status).toBe(404);
    expect((await invoice(String(pix.invoice.reference))).status).toBe('PENDING');
    expect(await availableBalance(auth)).toBe(before);
  });

  it('answers every refused signature alike (missing, malformed, stale, wrong): the reason is logged, never told', async () => {
    const pix = await createCharge('pix', auth, common());
    const body = JSON.stringify(notification('pix-paid', { txid: String(pix.invoice.txid) }));
    const secret = await providerSecret();
    const now = Math.floor(Date.now() / 1000);
    const send = (header: string | undefined) =>
      call('POST', '/provider/simulated/notifications', {
        headers: { 'content-type': 'application/json', ...(header === undefined ? {} : { [SIMULATED_SIGNATURE_HEADER]: header }) },
        body,
      });
    const replies = [
      await send(undefined),
      await send('t=abc,v1=zz'),
      await send(signatureHeader(body, secret, now - 3600)),
      await send(signatureHeader(body, 'not-the-provider-secret-not-the-provider', now)),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(401);
      expect(reply.json).toEqual({ error: 'Invalid notification signature', code: 'invalid_signature' });
    }
    expect((await invoice(String(pix.invoice.reference))).status).toBe('PENDING');
  });

  it('the operator CLI sends real notifications through the inbound route', async () => {
    const pix = await createCharge('pix', auth, common({ amount: 5, quantity: 1, tax: 0, discount: 0 }));
    const before = Number(await availableBalance(auth));
    const paid = await admin('provider', 'pix-paid', '--txid', String(pix.invoice.txid));
    expect(paid.code).toBe(0);
    expect(paid.json).toEqual({ status: 200, response: { received: true, applied: true } });
    expect(Number(await availableBalance(auth))).toBeCloseTo(before + 5, 2);
    const refund = await admin('provider', 'refund', '--reference', String(pix.invoice.reference));
    expect(refund.json).toEqual({ status: 200, response: { received: true, applied: true } });
    expect(Number(await availableBalance(auth))).toBeCloseTo(before, 2);
    const missing = await admin('provider', 'cancel');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
  });
});

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { PaymentMethod } from '../../shared/domain/payment-methods';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, bearer, call, newAccount, tokenFor } from '../support/api';
import { enterCheckout, entryForm, merchantCheckout } from '../support/checkout';
import { eventsAbout } from '../support/ledger';
import { notification, notify } from '../support/provider';

/**
 * An unpaid checkout whose Pix charge the provider cancels (issue 30, item 4; docs/decisions.md,
 * "Hosted checkout"): with no card to pay it, it is ABANDONED at once (its page answers 410, the
 * merchant's GET says ABANDONED) and no order event is written (no order exists before a payment);
 * with the card on offer it stays PENDING. The invoice's own invoice.canceled is sent either way.
 */
async function checkoutWith(methods: PaymentMethod[]) {
  const account = await newAccount(methods);
  const auth = bearer(await tokenFor(account));
  const form = entryForm(account);
  const { reply, page } = await enterCheckout(form);
  expect(reply.status, reply.text).toBe(303);
  const [, , reference = ''] = page.split('/');
  const store = accountStore();
  const checkout = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.checkout(reference), ConsistentRead: true }))).Item ?? {};
  const pixReference = String(checkout.pixReference);
  return { accountId: account.account_id, auth, txRef: form.tx_ref ?? '', page, reference, pixReference };
}

const statusOf = async (auth: Record<string, string>, txRef: string) =>
  ((await merchantCheckout(auth, txRef)).json as { checkout: { status: string } }).checkout.status;

describe('an unpaid checkout whose Pix charge is canceled', () => {
  it('offering Pix only: ABANDONED at once, its page 410, no order event; invoice.canceled for the invoice', async () => {
    const sale = await checkoutWith(['pix']);
    expect(await statusOf(sale.auth, sale.txRef)).toBe('PENDING');
    expect((await notify(notification('cancel', { reference: sale.pixReference }))).json).toEqual({ received: true, applied: true });
    expect(await statusOf(sale.auth, sale.txRef)).toBe('ABANDONED');
    expect((await call('GET', sale.page)).status).toBe(410);
    expect((await eventsAbout(sale.accountId, sale.reference)).filter((event) => event.type.startsWith('order.'))).toEqual([]);
    expect((await eventsAbout(sale.accountId, sale.pixReference)).map((event) => event.type)).toEqual(['invoice.canceled']);
  });

  it('offering the card too: stays PENDING (the payer may still pay by card), no order event', async () => {
    const sale = await checkoutWith(['pix', 'card']);
    expect((await notify(notification('cancel', { reference: sale.pixReference }))).json).toEqual({ received: true, applied: true });
    expect(await statusOf(sale.auth, sale.txRef)).toBe('PENDING');
    expect((await call('GET', sale.page)).status).toBe(200);
    expect((await eventsAbout(sale.accountId, sale.reference)).filter((event) => event.type.startsWith('order.'))).toEqual([]);
  });

  it('a late payment of the canceled Pix still pays the abandoned checkout once (order.paid)', async () => {
    const sale = await checkoutWith(['pix']);
    expect((await notify(notification('cancel', { reference: sale.pixReference }))).json).toEqual({ received: true, applied: true });
    expect(await statusOf(sale.auth, sale.txRef)).toBe('ABANDONED');
    const store = accountStore();
    const invoice = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.invoice(sale.pixReference), ConsistentRead: true }))).Item ?? {};
    const txid = String((invoice.pix as { txid?: string } | undefined)?.txid);
    expect((await notify(notification('pix-paid', { txid }))).json).toEqual({ received: true, applied: true });
    expect(await statusOf(sale.auth, sale.txRef)).toBe('PAID');
    expect((await eventsAbout(sale.accountId, sale.reference)).map((event) => event.type)).toEqual(['order.paid']);
  });
});

import { describe, expect, it } from 'vitest';
import { bearer, newAccount, tokenFor } from '../support/api';
import { cardFields, enterCheckout, entryForm, merchantCheckout, openPage, postForm } from '../support/checkout';

describe('hosted checkout: entry, page, card payment, confirmation', () => {
  it('a card payment: 303 to the page, the page, 303 to callback_url with tx_ref and status, then PAID by query', async () => {
    const keys = await newAccount();
    const auth = bearer(await tokenFor(keys));
    const form = entryForm(keys);
    const { reply, page } = await enterCheckout(form);
    expect(reply.status, reply.text).toBe(303);
    expect(page).toMatch(/^\/checkout\/CHK-[A-Z0-9]{8}\/[A-Za-z0-9_-]{32}$/);
    const opened = await openPage(page);
    expect(opened.reply.status, opened.reply.text).toBe(200);
    expect(opened.reply.text).toContain('R$ 99,80');
    const paid = await postForm(`${page}/card`, cardFields(opened.csrf), { cookie: opened.cookie });
    expect(paid.status, paid.text).toBe(303);
    const back = new URL(String(paid.headers.location));
    expect(back.origin + back.pathname).toBe(form.callback_url);
    expect(back.searchParams.get('tx_ref')).toBe(form.tx_ref);
    expect(back.searchParams.get('status')).toBe('PAID');
    const confirmed = await merchantCheckout(auth, String(form.tx_ref));
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toMatchObject({ checkout: { tx_ref: form.tx_ref, status: 'PAID', total: '99.80', payment_type: 'creditcard' } });
  });
});

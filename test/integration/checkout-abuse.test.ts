import { describe, expect, it } from 'vitest';
import { bearer, call, newAccount, tokenFor } from '../support/api';
import { cardFields, enterCheckout, entryForm, merchantCheckout, openPage } from '../support/checkout';

/**
 * The hosted checkout under abuse (issue 31): the CSRF cookie is the server's, and the card route takes
 * only the page's form.
 */
describe('the checkout card form', () => {
  it("replaces a CSRF cookie value the browser chose with the server's own (signed), and keeps its own", async () => {
    const account = await newAccount();
    const { page } = await enterCheckout(entryForm(account));
    const chosen = `chk_csrf=${'a'.repeat(32)}.${'b'.repeat(32)}`;
    const opened = await openPage(page, chosen);
    expect(opened.reply.status).toBe(200);
    expect(opened.reply.headers['set-cookie']).toBeDefined();
    expect(opened.cookie).not.toBe(chosen);
    expect(opened.cookie).toMatch(/^chk_csrf=[A-Za-z0-9_-]{32}\.[A-Za-z0-9_-]{32}$/);
    // The server's own value is kept: no new cookie.
    const again = await openPage(page, opened.cookie);
    expect(again.reply.headers['set-cookie']).toBeUndefined();
    expect(again.csrf).toBe(opened.csrf);
  });

  it('refuses a card post that is not the page form (JSON, text/plain): 400, nothing charged', async () => {
    const account = await newAccount();
    const form = entryForm(account);
    const { page } = await enterCheckout(form);
    const opened = await openPage(page);
    const fields = cardFields(opened.csrf);
    for (const [type, body] of [
      ['application/json', JSON.stringify(fields)],
      ['text/plain', new URLSearchParams(fields).toString()],
    ] as const) {
      const reply = await call('POST', `${page}/card`, { headers: { 'content-type': type, cookie: opened.cookie }, body });
      expect(reply.status, type).toBe(400);
      expect(reply.headers['content-type']).toMatch(/text\/html/);
    }
    // multipart/form-data too (what a cross-site form may send)
    const multipart = await call('POST', `${page}/card`, {
      headers: { 'content-type': 'multipart/form-data; boundary=x', cookie: opened.cookie },
      body: `--x\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n${opened.csrf}\r\n--x--\r\n`,
    });
    expect(multipart.status).toBe(400);
    const merchant = await merchantCheckout(bearer(await tokenFor(account)), form.tx_ref ?? '');
    expect((merchant.json as { checkout: { status: string } }).checkout.status).toBe('PENDING');
  });
});

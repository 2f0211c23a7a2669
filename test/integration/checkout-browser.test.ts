import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showAccount, type IssuedKeys } from '../../shared/adapters/dynamo/accounts';
import { escapeHtml } from '../../shared/pages/kit/html';
import { SIMULATED_CARDS } from '../../shared/adapters/providers/simulated';
import { accountStore, bearer, call, newAccount, stack, tokenFor } from '../support/api';
import { saveScreenshot, screenshotDir, sharedBrowser, VIEWPORTS, withPage } from '../support/browser';
import { entryForm, merchantCheckout, type CheckoutFields } from '../support/checkout';
import { notification, notify } from '../support/provider';

/**
 * The hosted checkout in headless Chromium, as a payer meets it: a merchant's page with a form of hidden
 * fields posting to /ext_transfer, the checkout page, a declined then an approved card, a Pix payment
 * completed by the simulated provider while the page stays open, and the arrival at the merchant's
 * callback_url; then the merchant's confirmation call.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** The page polls every 3 s; a busy 2-core CI machine gets ten polls' worth of slack. */
const PAYMENT_WAIT_MS = 30_000;
const CHECKOUT_PAGE = /^\/checkout\/CHK-[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{8}\/[A-Za-z0-9_-]{32}$/;

type Arrival = { path: string; query: URLSearchParams };

/**
 * The merchant's site on 127.0.0.1: GET /buy/<n> is a page whose form of hidden inputs posts an offered
 * checkout to the service; GET /done is the callback_url, which records each query it receives.
 */
type MerchantSite = {
  origin: string;
  callbackUrl: string;
  arrivals: Arrival[];
  /** Publishes a page holding fields as hidden inputs; returns its URL. */
  offer: (fields: CheckoutFields) => string;
  close: () => Promise<void>;
};

function formPage(action: string, fields: CheckoutFields): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Loja de teste</title></head>
<body><h1>Loja de teste</h1>
<form id="buy" method="post" action="${escapeHtml(action)}">
${inputs}
<button type="submit" id="go">Pagar</button>
</form></body></html>`;
}

async function startMerchantSite(serviceBaseUrl: string): Promise<MerchantSite> {
  const pages = new Map<string, string>();
  const arrivals: Arrival[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const html = url.pathname === '/done' ? '<!doctype html><html lang="pt-BR"><body><p id="thanks">Obrigado!</p></body></html>' : pages.get(url.pathname);
    if (url.pathname === '/done') arrivals.push({ path: url.pathname, query: url.searchParams });
    res.writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html ?? 'not found');
  });
  // Port 0: the kernel picks a free port and the server holds it at once (no window for another process).
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    callbackUrl: `${origin}/done`,
    arrivals,
    offer: (fields) => {
      const path = `/buy/${pages.size + 1}`;
      pages.set(path, formPage(`${serviceBaseUrl}/ext_transfer`, fields));
      return origin + path;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Console errors and uncaught page errors of one page, for the whole flow. */
function watchErrors(page: Page): { consoleErrors: string[]; pageErrors: string[] } {
  const watched = { consoleErrors: [] as string[], pageErrors: [] as string[] };
  page.on('console', (message) => {
    if (message.type() === 'error') watched.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => watched.pageErrors.push(error.message));
  return watched;
}

function expectNoCspViolations(watched: { consoleErrors: string[]; pageErrors: string[] }): void {
  expect(watched.consoleErrors.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
  expect(watched.pageErrors).toEqual([]);
}

/** The merchant's page, its form submitted with a click: the browser ends on the checkout page. */
async function checkoutThroughMerchant(page: Page, merchant: MerchantSite, fields: CheckoutFields): Promise<URL> {
  await page.goto(merchant.offer(fields));
  await Promise.all([page.waitForURL((url) => url.pathname.startsWith('/checkout/')), page.click('#go')]);
  const url = new URL(page.url());
  expect(url.origin).toBe(stack().baseUrl);
  expect(url.pathname).toMatch(CHECKOUT_PAGE);
  return url;
}

/** Presses Tab until the element of the given id has focus; the number of presses, or undefined after max. */
async function tabTo(page: Page, id: string, max: number): Promise<number | undefined> {
  for (let presses = 1; presses <= max; presses += 1) {
    await page.keyboard.press('Tab');
    if ((await page.locator(':focus').getAttribute('id')) === id) return presses;
  }
  return undefined;
}

async function fillCard(page: Page, number: string): Promise<void> {
  await page.fill('#creditcard_holder', 'ANA SILVA');
  // Typed key by key, as a payer does (the number and CVV are never refilled by the server).
  await page.fill('#creditcard_number', '');
  await page.focus('#creditcard_number');
  await page.keyboard.type(number);
  await page.fill('#creditcard_month', '12');
  await page.fill('#creditcard_year', String(new Date().getUTCFullYear() + 2));
  await page.fill('#creditcard_cvv', '');
  await page.focus('#creditcard_cvv');
  await page.keyboard.type('123');
  await page.selectOption('#creditcard_brand', 'visa');
  await page.selectOption('#installments', '1');
}

function isCallback(merchant: MerchantSite, txRef: string): (url: URL) => boolean {
  return (url) => url.origin + url.pathname === merchant.callbackUrl && url.searchParams.get('tx_ref') === txRef;
}

describe('hosted checkout in Chromium: merchant form, checkout page, card and Pix, back to callback_url', () => {
  const chromium = sharedBrowser();
  let merchant: MerchantSite;
  let keys: IssuedKeys;
  let auth: Record<string, string>;
  let merchantName: string;

  beforeAll(async () => {
    merchant = await startMerchantSite(stack().baseUrl);
    keys = await newAccount();
    auth = bearer(await tokenFor(keys));
    merchantName = (await showAccount(accountStore(), keys.account_id)).name;
  });
  afterAll(async () => {
    await chromium.close();
    await merchant?.close();
  });

  it('card: form post, the page (pt-BR, screenshot at 360 px), a declined card keeps it PENDING, an approved one lands on callback_url PAID', async () => {
    const form = entryForm(keys, { callback_url: merchant.callbackUrl });
    const txRef = form.tx_ref ?? '';
    await withPage(
      await chromium.browser(),
      async (page) => {
        const watched = watchErrors(page);
        await checkoutThroughMerchant(page, merchant, form);
        expect(await page.getAttribute('html', 'lang')).toBe('pt-BR');
        expect((await page.textContent('#merchant'))?.trim()).toBe(merchantName);
        expect((await page.textContent('#total'))?.trim()).toBe('R$ 99,80');

        const shot = await saveScreenshot(page, 'checkout-page-mobile');
        expect(shot.startsWith(screenshotDir())).toBe(true);
        expect(statSync(shot).isFile()).toBe(true);
        const png = readFileSync(shot);
        expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
        expect(png.readUInt32BE(16)).toBe(VIEWPORTS.mobile.width);

        await fillCard(page, SIMULATED_CARDS.declined);
        await Promise.all([page.waitForSelector('#card-notice', { timeout: PAYMENT_WAIT_MS }), page.click('#pay-card')]);
        expect(await page.textContent('#card-notice')).toMatch(/recusado/i);
        expect(await page.inputValue('#creditcard_number')).toBe('');
        const pending = await merchantCheckout(auth, txRef);
        expect(pending.status, pending.text).toBe(200);
        expect(pending.json).toMatchObject({ checkout: { tx_ref: txRef, status: 'PENDING' } });
        expect(merchant.arrivals.filter((arrival) => arrival.query.get('tx_ref') === txRef)).toEqual([]);

        await fillCard(page, SIMULATED_CARDS.approved);
        // Enter in the CVV field submits the form, as a keyboard user would.
        await page.focus('#creditcard_cvv');
        await Promise.all([page.waitForURL(isCallback(merchant, txRef), { timeout: PAYMENT_WAIT_MS }), page.keyboard.press('Enter')]);
        const landed = new URL(page.url());
        expect(landed.searchParams.get('status')).toBe('PAID');
        expect(await page.textContent('#thanks')).toBe('Obrigado!');
        const arrivals = merchant.arrivals.filter((arrival) => arrival.query.get('tx_ref') === txRef);
        expect(arrivals.map((arrival) => arrival.query.get('status'))).toEqual(['PAID']);
        expectNoCspViolations(watched);
      },
      { viewport: 'mobile' },
    );
    const confirmed = await merchantCheckout(auth, txRef);
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json).toMatchObject({ checkout: { tx_ref: txRef, status: 'PAID', total: '99.80', payment_type: 'creditcard' } });
  }, 60_000);

  it('Pix: QR and copy code, the copy button, then paid by the provider while the page is open: the page goes to callback_url by itself', async () => {
    const form = entryForm(keys, { callback_url: merchant.callbackUrl, quantity: '3', amount: '1234.56' });
    const txRef = form.tx_ref ?? '';
    await withPage(await chromium.browser(), async (page) => {
      const watched = watchErrors(page);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack().baseUrl });
      await checkoutThroughMerchant(page, merchant, form);
      expect((await page.textContent('#total'))?.trim()).toBe('R$ 3.703,68');
      expect((await page.textContent('#status'))?.trim()).toBe('Aguardando pagamento');

      const qr = await page.getAttribute('#pix-qr', 'src');
      expect(qr).toMatch(/^data:image\/png;base64,/);
      // Decoded by the browser: the CSP's img-src lets the data: URL through.
      expect(await page.evaluate<number>("document.getElementById('pix-qr').naturalWidth")).toBeGreaterThan(0);
      const code = await page.inputValue('#pix-copy');
      expect(code.startsWith('000201')).toBe(true);

      await page.click('#copy-pix');
      await page.waitForFunction("document.getElementById('copy-pix').textContent === 'Copiado!'");
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(code);

      const listed = await call('GET', `/api/invoices?invoice_no=${encodeURIComponent(txRef)}`, { headers: auth });
      expect(listed.status, listed.text).toBe(200);
      const invoices = (listed.json as { invoices: Array<Record<string, unknown>> }).invoices.filter((invoice) => invoice.invoice_no === txRef);
      expect(invoices).toHaveLength(1);
      const invoice = invoices[0] ?? {};
      expect(invoice).toMatchObject({ method: 'pix', status: 'PENDING', total: '3703.68', copy: code });
      const txid = String(invoice.txid);

      // Every main-frame navigation from here on: the page must reach the callback by itself, no reload.
      const navigations: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations.push(frame.url());
      });
      const arrived = page.waitForURL(isCallback(merchant, txRef), { timeout: PAYMENT_WAIT_MS });
      arrived.catch(() => undefined); // awaited below; no unhandled rejection if notify's assertion fails first
      const notified = await notify(notification('pix-paid', { txid }));
      expect(notified.status, notified.text).toBeLessThan(300);
      await arrived;

      const landed = new URL(page.url());
      expect(landed.searchParams.get('status')).toBe('PAID');
      expect(navigations).toEqual([page.url()]);
      const arrivals = merchant.arrivals.filter((arrival) => arrival.query.get('tx_ref') === txRef);
      expect(arrivals.map((arrival) => arrival.query.get('status'))).toEqual(['PAID']);
      expectNoCspViolations(watched);
    });
    const confirmed = await merchantCheckout(auth, txRef);
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json).toMatchObject({ checkout: { tx_ref: txRef, status: 'PAID', total: '3703.68', payment_type: 'pix' } });
  }, 60_000);

  it('keyboard: Tab from the top of the checkout page reaches the card number, then the pay button', async () => {
    const form = entryForm(keys, { callback_url: merchant.callbackUrl });
    await withPage(await chromium.browser(), async (page) => {
      const watched = watchErrors(page);
      await checkoutThroughMerchant(page, merchant, form);
      // Pix's code and copy button, then holder and number: a handful of presses; 12 is generous.
      expect(await tabTo(page, 'creditcard_number', 12)).toBeDefined();
      // Then month, year, CVV, brand, installments and the button.
      expect(await tabTo(page, 'pay-card', 8)).toBeDefined();
      expect((await page.locator(':focus').textContent())?.trim()).toBe('Pagar R$ 99,80');
      expectNoCspViolations(watched);
    });
  });
});

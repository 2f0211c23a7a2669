import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { linhaDigitavel2CodBarras, validarBoleto } from '@mrmgomes/boleto-utils';
import { boletoBancarioCodigoBarras, boletoBancarioLinhaDigitavel } from 'boleto-brasileiro-validator';
import { hasError, isDynamicPix, parsePix } from 'pix-utils';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, newAccount, stack, tokenFor } from '../support/api';
import { seriousAxeViolations } from '../support/axe';
import { saveScreenshot, screenshotDir, sharedBrowser, VIEWPORTS, type ViewportName, withPage } from '../support/browser';
import { common, createCharge, createCustomerWithAddress, decodeQrDataUri } from '../support/charges';
import { notification, notify } from '../support/provider';

/**
 * The printable page of a BolePix (issue "BolePix") in headless Chromium, as a payer meets it: both
 * rails while it is PENDING (the digitable line and the ITF barcode, the Pix QR code and its copy
 * code, the late-payment row), no serious accessibility violation at 360 px and 1280 px, one A4 page
 * when printed; then, paid by Pix, a notice and no Pix half.
 */

/** A busy 2-core CI machine: the stack, Chromium and axe-core share it with the other test files. */
const BROWSER_TEST_MS = 120_000;

type Created = {
  reference: string;
  total: string;
  due_date: string;
  boleto: string;
  barcode: string;
  digitable: string;
  txid: string;
  copy: string;
  qrcode: string;
};

/** The bank's printed form of a 47-digit line, written here independently of the page's formatter. */
function printedDigitable(digits: string): string {
  const match = /^(\d{5})(\d{5})(\d{5})(\d{6})(\d{5})(\d{6})(\d)(\d{14})$/.exec(digits);
  if (!match) throw new Error(`not a 47-digit line: ${digits}`);
  const [, a, b, c, d, e, f, g, h] = match;
  return `${a}.${b} ${c}.${d} ${e}.${f} ${g} ${h}`;
}

/**
 * Console errors (a CSP refusal of the page's style shows up here), uncaught errors and failed loads
 * of one page. Chromium's own request for /favicon.ico (the page links no icon; the stack answers 404)
 * is not the page's.
 */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    const { url } = message.location();
    if (message.type() === 'error' && new URL(url || 'about:blank').pathname !== '/favicon.ico') errors.push(`${message.text()} @ ${url}`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
  });
  return errors;
}

/** A4's content box at 96 px to the inch: 210 × 297 mm less the page's 12 mm margins on each side. */
const A4_CONTENT_PX = { width: Math.floor((186 * 96) / 25.4), height: Math.floor((273 * 96) / 25.4) };

/** The `/Type /Page` objects of a PDF (not the `/Type /Pages` tree nodes): its number of pages. */
function pdfPageCount(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? []).length;
}

/** Writes bytes under a name of this process, then renames: runs side by side never read a half-written file. */
function saveBeside(name: string, bytes: Buffer): string {
  const finalPath = join(screenshotDir(), name);
  const partPath = join(screenshotDir(), `.${name}.${process.pid}.part`);
  writeFileSync(partPath, bytes);
  renameSync(partPath, finalPath);
  return finalPath;
}

describe('BolePix printable page in Chromium: both rails, accessible, one A4 page, then paid by Pix', () => {
  const chromium = sharedBrowser();
  let created: Created;
  /** The `boleto` URL of the answer, on the local stack's origin. */
  let pageUrl: string;

  beforeAll(async () => {
    const auth = bearer(await tokenFor(await newAccount(['pix', 'boleto'])));
    const customer = await createCustomerWithAddress(auth);
    const reply = await createCharge('boleto', auth, { ...common(), customer, fine: 2, interest: 1, days_after_due: 10 });
    expect(reply.status, reply.text).toBe(200);
    created = reply.invoice as Created;
    expect(created.digitable).toMatch(/^\d{47}$/);
    expect(created.barcode).toMatch(/^\d{44}$/);
    expect(created.copy).toMatch(/^000201/);
    expect(created.qrcode).toMatch(/^data:image\/png;base64,/);
    // The link may carry the configured public base URL: the page itself is served by the local stack.
    const link = new URL(created.boleto);
    expect(link.pathname).toMatch(new RegExp(`^/boleto/${created.reference}/[A-Za-z0-9_-]+$`));
    pageUrl = new URL(link.pathname + link.search, stack().baseUrl).toString();
  });
  afterAll(() => chromium.close());

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(
      `PENDING at ${viewport} (${VIEWPORTS[viewport].width} px): the digitable line, the barcode, the Pix QR code and copy code, the late-payment row; no serious axe violation`,
      async () => {
        await withPage(
          await chromium.browser(),
          async (page) => {
            const errors = watchErrors(page);
            const response = await page.goto(pageUrl);
            expect(response?.status()).toBe(200);
            expect(await page.getAttribute('html', 'lang')).toBe('pt-BR');

            // The boleto rail: the line as banks print it, valid by an independent validator, and the barcode's bars.
            const line = page.locator('.line');
            expect(await line.isVisible()).toBe(true);
            const lineText = ((await line.textContent()) ?? '').trim();
            expect(lineText).toBe(printedDigitable(created.digitable));
            expect(lineText.replace(/\D/g, '')).toBe(created.digitable);
            expect(boletoBancarioLinhaDigitavel(lineText, true)).toBe(true);
            expect(boletoBancarioCodigoBarras(created.barcode)).toBe(true);
            // And with boleto-utils: the page's line is a valid boleto whose barcode is the answer's.
            expect(validarBoleto(lineText.replace(/\D/g, '')).sucesso).toBe(true);
            expect(linhaDigitavel2CodBarras(lineText.replace(/\D/g, ''))).toBe(created.barcode);
            const bars = page.locator('.barcode svg');
            expect(await bars.isVisible()).toBe(true);
            const barsBox = await bars.boundingBox();
            expect(barsBox?.width ?? 0).toBeGreaterThan(100);
            expect(barsBox?.height ?? 0).toBeGreaterThan(10);
            expect(await bars.locator('rect, path').count()).toBeGreaterThan(0);

            // The Pix rail: a QR image the browser decoded, of exactly the answer's copy code, and the code itself.
            expect(await page.locator('.pix').isVisible()).toBe(true);
            const qr = page.locator('.pix img');
            expect(await qr.count()).toBe(1);
            expect(await qr.isVisible()).toBe(true);
            expect(((await qr.getAttribute('alt')) ?? '').trim()).not.toBe('');
            expect(await qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
            const src = (await qr.getAttribute('src')) ?? '';
            expect(src).toMatch(/^data:image\/png;base64,/);
            expect(decodeQrDataUri(src)).toBe(created.copy);
            const copy = page.locator('.pix .copy');
            expect(await copy.isVisible()).toBe(true);
            expect(((await copy.textContent()) ?? '').trim()).toBe(created.copy);
            const parsed = parsePix(created.copy);
            expect(hasError(parsed), JSON.stringify(parsed)).toBe(false);
            expect(!hasError(parsed) && isDynamicPix(parsed)).toBe(true);

            // Both rails follow the same late-payment rules.
            const late = page.locator('tr', { has: page.locator('th', { hasText: 'Juros e multa' }) });
            expect(await late.count()).toBe(1);
            expect(await late.isVisible()).toBe(true);
            const lateText = (await late.locator('td').textContent()) ?? '';
            expect(lateText).toContain('2,00%');
            expect(lateText).toContain('1,00%');

            expect(JSON.stringify(await seriousAxeViolations(page), null, 1), `axe at ${viewport}`).toBe('[]');
            // Reflow (WCAG 1.4.10), which axe does not test: nothing scrolls sideways, the barcode included.
            const widths = await page.evaluate<{ scroll: number; client: number }>(
              '({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })',
            );
            expect(widths.scroll, `no sideways scroll at ${viewport}`).toBeLessThanOrEqual(widths.client);
            await saveScreenshot(page, `boleto-bolepix-${viewport}`);
            // No CSP refusal of the page's style, no script error.
            expect(errors).toEqual([]);
          },
          { viewport },
        );
      },
      BROWSER_TEST_MS,
    );
  }

  it(
    'printed: one A4 page (PDF saved beside the screenshots, and a screenshot of the print layout)',
    async () => {
      await withPage(
        await chromium.browser(),
        async (page) => {
          const response = await page.goto(pageUrl);
          expect(response?.status()).toBe(200);
          await page.emulateMedia({ media: 'print' });
          const pdf = await page.pdf({ format: 'A4', printBackground: true });
          expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
          // The print layout at the width of the PDF's content box (A4 less the page's 12 mm margins: 186 × 273 mm),
          // measured for the message should it not fit, and kept as the screenshot.
          await page.setViewportSize({ width: A4_CONTENT_PX.width, height: A4_CONTENT_PX.height });
          const heightMm = await page.evaluate(() => {
            const doc = (globalThis as unknown as { document: { querySelector: (s: string) => { getBoundingClientRect: () => { height: number } } | null } })
              .document;
            return ((doc.querySelector('main')?.getBoundingClientRect().height ?? 0) * 25.4) / 96;
          });
          expect(pdfPageCount(pdf), `the print layout's <main> is ${heightMm.toFixed(1)} mm high of 273 mm`).toBe(1);
          const pdfPath = saveBeside('boleto-bolepix-a4.pdf', pdf);
          expect(pdfPath.startsWith(screenshotDir())).toBe(true);
          expect(existsSync(pdfPath)).toBe(true);
          expect(readFileSync(pdfPath).equals(pdf)).toBe(true);

          const shot = await saveScreenshot(page, 'boleto-bolepix-a4');
          expect(shot).toBe(join(screenshotDir(), 'boleto-bolepix-a4.png'));
          expect(statSync(shot).isFile()).toBe(true);
          expect(statSync(shot).size).toBeGreaterThan(0);
          expect(readFileSync(shot).readUInt32BE(16)).toBe(A4_CONTENT_PX.width);
        },
        { viewport: 'desktop' },
      );
    },
    BROWSER_TEST_MS,
  );

  it(
    'paid by Pix: on reload a notice says it was paid, and the Pix half (section, QR code, copy code) is gone',
    async () => {
      await withPage(
        await chromium.browser(),
        async (page) => {
          const errors = watchErrors(page);
          expect((await page.goto(pageUrl))?.status()).toBe(200);
          expect(await page.locator('.pix img').count()).toBe(1);
          expect(await page.locator('.notice').count()).toBe(0);

          const paid = await notify(notification('pix-paid', { txid: created.txid }));
          expect(paid.status, paid.text).toBe(200);
          expect(paid.json).toMatchObject({ applied: true });

          expect((await page.reload())?.status()).toBe(200);
          const notice = page.locator('.notice');
          expect(await notice.count()).toBe(1);
          expect(await notice.isVisible()).toBe(true);
          expect(await notice.getAttribute('role')).toBe('status');
          expect((await notice.textContent()) ?? '').toMatch(/já foi pago/i);
          expect(await page.locator('.pix').count()).toBe(0);
          expect(await page.locator('img').count()).toBe(0);
          expect(await page.getByText('Pague com Pix').count()).toBe(0);
          expect(await page.content()).not.toContain(created.copy);
          // Still the boleto of record: its line stays on the page.
          expect(((await page.locator('.line').textContent()) ?? '').trim()).toBe(printedDigitable(created.digitable));
          expect(JSON.stringify(await seriousAxeViolations(page), null, 1), 'axe on the paid page').toBe('[]');
          expect(errors).toEqual([]);
        },
        { viewport: 'mobile' },
      );
    },
    BROWSER_TEST_MS,
  );
});

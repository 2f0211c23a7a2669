import { readFileSync, statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { stack } from '../support/api';
import { saveScreenshot, screenshotDir, sharedBrowser, VIEWPORTS, type ViewportName, withPage } from '../support/browser';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk (always the first, right after the signature). */
function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const SCRIPTED_PAGE = `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>
<body style="margin:0;background:#fff">
  <p id="out">script did not run</p>
  <button id="more" type="button">0</button>
  <script>
    document.getElementById('out').textContent = 'script ran: ' + (6 * 7);
    const more = document.getElementById('more');
    more.addEventListener('click', () => { more.textContent = String(Number(more.textContent) + 1); });
  </script>
</body></html>`;

describe('headless Chromium (browser test groundwork)', () => {
  const chromium = sharedBrowser();
  afterAll(() => chromium.close());

  it('reaches the local stack: GET /developers/openapi.yaml answers 200 with the OpenAPI document', async () => {
    await withPage(await chromium.browser(), async (page) => {
      // Chromium downloads application/yaml instead of showing it: open the stack's origin (a JSON
      // 404), then fetch the document from the page, through the browser's own network stack.
      const landing = await page.goto(stack().baseUrl);
      expect(landing?.url()).toBe(`${stack().baseUrl}/`);
      const reply = await page.evaluate(async (path) => {
        const response = await fetch(path);
        return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
      }, '/developers/openapi.yaml');
      expect(reply.status).toBe(200);
      expect(reply.contentType).toMatch(/yaml/);
      expect(reply.text).toMatch(/^openapi: /m);
    });
  });

  it('runs a page script and answers a click', async () => {
    await withPage(await chromium.browser(), async (page) => {
      await page.setContent(SCRIPTED_PAGE);
      expect(await page.textContent('#out')).toBe('script ran: 42');
      await page.click('#more');
      await page.click('#more');
      expect(await page.textContent('#more')).toBe('2');
    });
  });

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`saves a PNG screenshot at the ${viewport} size under .local/test-output/screenshots`, async () => {
      const path = await withPage(
        await chromium.browser(),
        async (page) => {
          await page.setContent(SCRIPTED_PAGE);
          return saveScreenshot(page, `browser-smoke-${viewport}`);
        },
        { viewport },
      );
      expect(path.startsWith(screenshotDir())).toBe(true);
      expect(statSync(path).isFile()).toBe(true);
      const png = readFileSync(path);
      expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      expect(pngSize(png)).toEqual(VIEWPORTS[viewport]);
    });
  }
});

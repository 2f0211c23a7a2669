import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { admin, stack } from '../support/api';
import { seriousAxeViolations } from '../support/axe';
import { saveScreenshot, sharedBrowser, type ViewportName, withPage } from '../support/browser';
import { codeFor } from '../support/panel';

/**
 * The merchant panel in headless Chromium (issue 27), as a merchant's person meets it: the operator's
 * invite link, the enrollment (password and authenticator by its QR code's key), the sign-in in two
 * steps, the overview and the sign-out; axe-core on every page at 360 px and 1280 px.
 */
const browser = sharedBrowser();
afterAll(() => browser.close());

async function expectAccessible(page: Page, name: string): Promise<void> {
  expect(JSON.stringify(await seriousAxeViolations(page), null, 1), name).toBe('[]');
  await saveScreenshot(page, name);
}

/** Fills a control found by its visible label (every control has one). */
const fill = (page: Page, label: string, value: string) => page.getByLabel(label, { exact: true }).fill(value);

for (const viewport of ['mobile', 'desktop'] as const satisfies readonly ViewportName[]) {
  describe(`merchant panel in Chromium (${viewport})`, () => {
    it('invite → enrollment → sign-in with the code → overview, keys, webhooks, audit log → sign-out, every page without serious accessibility violations', async () => {
      const account = (await admin('account', 'create', '--name', `Padaria ${viewport}`)).json as { account_id: string };
      await admin('account', 'credit', '--account', account.account_id, '--amount', '1234.56');
      const email = `ana.${viewport}.${Date.now()}@example.com`;
      const invite = (await admin('panel', 'invite', '--account', account.account_id, '--email', email, '--role', 'owner')).json as { invite_url: string };
      const base = stack().baseUrl;
      const link = new URL(new URL(invite.invite_url).pathname, base).toString();
      const password = `pão de queijo quentinho ${viewport}`;
      await withPage(
        await browser.browser(),
        async (page) => {
          await page.goto(link);
          await expect.poll(() => page.title()).toContain('Aceitar convite');
          await expectAccessible(page, `panel-enroll-${viewport}`);
          const secret = (await page.locator('#totp-secret').textContent())?.trim() ?? '';
          expect(await page.locator('#otpauth-uri').textContent()).toContain(`secret=${secret}`);
          await fill(page, 'Senha', password);
          await fill(page, 'Confirme a senha', `${password}?`);
          await fill(page, 'Código de verificação', codeFor(secret));
          await page.getByRole('button', { name: 'Criar acesso' }).click();
          // The page again, its errors announced, the same key kept.
          await expect.poll(() => page.locator('#form-errors').textContent()).toContain('As senhas não são iguais.');
          expect((await page.locator('#totp-secret').textContent())?.trim()).toBe(secret);
          await expectAccessible(page, `panel-enroll-errors-${viewport}`);
          await fill(page, 'Senha', password);
          await fill(page, 'Confirme a senha', password);
          await fill(page, 'Código de verificação', codeFor(secret));
          await page.getByRole('button', { name: 'Criar acesso' }).click();

          await expect.poll(() => new URL(page.url()).pathname).toBe('/panel/entrar');
          expect(await page.getByRole('status').textContent()).toContain('Acesso criado');
          await expectAccessible(page, `panel-sign-in-${viewport}`);
          await fill(page, 'E-mail', email);
          await fill(page, 'Senha', password);
          await page.getByRole('button', { name: 'Continuar' }).click();

          await expect.poll(() => new URL(page.url()).pathname).toBe('/panel/entrar/codigo');
          await expectAccessible(page, `panel-code-${viewport}`);
          await fill(page, 'Código de verificação', codeFor(secret, 1));
          await page.getByRole('button', { name: 'Entrar' }).click();

          await expect.poll(() => new URL(page.url()).pathname).toBe('/panel');
          expect(await page.locator('#available').textContent()).toBe('R$ 1.234,56');
          await expectAccessible(page, `panel-overview-${viewport}`);
          const cookies = await page.context().cookies();
          const session = cookies.find((c) => c.name === '__Host-panel_session');
          expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });

          for (const [link, path, name] of [
            ['Clientes', '/panel/clientes', 'customers'],
            ['Métodos de pagamento', '/panel/metodos', 'methods'],
            ['Chaves de API', '/panel/chaves', 'keys'],
            ['Webhooks', '/panel/webhooks', 'webhooks'],
            ['Auditoria', '/panel/auditoria', 'audit'],
          ] as const) {
            await page.getByRole('link', { name: link }).click();
            await expect.poll(() => new URL(page.url()).pathname).toBe(path);
            await expectAccessible(page, `panel-${name}-${viewport}`);
          }
          expect(await page.locator('#audit tbody tr').count()).toBe(2);

          await page.getByRole('button', { name: 'Sair' }).click();
          await expect.poll(() => new URL(page.url()).pathname).toBe('/panel/entrar');
          await page.goto(new URL('/panel', base).toString());
          expect(new URL(page.url()).pathname).toBe('/panel/entrar');
        },
        { viewport },
      );
    });
  });
}

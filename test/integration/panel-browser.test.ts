import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { admin, basic, bearer, call, stack, tokenFor } from '../support/api';
import { common, createCharge } from '../support/charges';
import { notification, notify } from '../support/provider';
import { nextCode } from '../support/totp-clock';
import { seriousAxeViolations } from '../support/axe';
import { saveScreenshot, sharedBrowser, type ViewportName, withPage } from '../support/browser';

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

/**
 * The person's authenticator as the journey uses it: each code of a later step than the last one used
 * (codes work once), the authenticator's test clock moved forward when the server's window has not
 * reached it yet (test/support/totp-clock.ts: never a wait).
 */
function authenticator(secret: string) {
  const enrollment = nextCode(secret, undefined);
  let last = enrollment.step;
  return {
    /** The code of the current step (the enrollment's). */
    first: () => enrollment.code,
    next(): Promise<string> {
      const { code, step } = nextCode(secret, last);
      last = step;
      return Promise.resolve(code);
    },
  };
}

/** Fills a control found by its visible label (every control has one). */
const fill = (page: Page, label: string, value: string) => page.getByLabel(label, { exact: true }).fill(value);

for (const viewport of ['mobile', 'desktop'] as const satisfies readonly ViewportName[]) {
  describe(`merchant panel in Chromium (${viewport})`, () => {
    it('invite → enrollment → sign-in with the code → new keys → webhook URL and secret → a withdrawal with step-up → the audit log → sign-out, every page without serious accessibility violations', async () => {
      const account = (await admin('account', 'create', '--name', `Padaria ${viewport}`)).json as {
        account_id: string;
        public_key: string;
        secret_key: string;
      };
      const oldToken = await tokenFor(account);
      await admin('account', 'credit', '--account', account.account_id, '--amount', '1234.56');
      // One Pix charge paid: the overview's payments per method has a row (its table is checked by axe too).
      const pix = await createCharge('pix', bearer(oldToken), common({ amount: 10, quantity: 1, tax: 0, discount: 0 }));
      expect((await notify(notification('pix-paid', { txid: String(pix.invoice.txid) }))).status).toBe(200);
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
          const codes = authenticator(secret);
          expect(await page.locator('#otpauth-uri').textContent()).toContain(`secret=${secret}`);
          await fill(page, 'Senha', password);
          await fill(page, 'Confirme a senha', `${password}?`);
          await fill(page, 'Código de verificação', codes.first());
          await page.getByRole('button', { name: 'Criar acesso' }).click();
          // The page again, its errors announced, the same key kept.
          await expect.poll(() => page.locator('#form-errors').textContent()).toContain('As senhas não são iguais.');
          expect((await page.locator('#totp-secret').textContent())?.trim()).toBe(secret);
          await expectAccessible(page, `panel-enroll-errors-${viewport}`);
          await fill(page, 'Senha', password);
          await fill(page, 'Confirme a senha', password);
          await fill(page, 'Código de verificação', codes.first());
          await page.getByRole('button', { name: 'Criar acesso' }).click();

          await expect.poll(() => new URL(page.url()).pathname).toBe('/panel/entrar');
          expect(await page.getByRole('status').textContent()).toContain('Acesso criado');
          await expectAccessible(page, `panel-sign-in-${viewport}`);
          await fill(page, 'E-mail', email);
          await fill(page, 'Senha', password);
          await page.getByRole('button', { name: 'Continuar' }).click();

          await expect.poll(() => new URL(page.url()).pathname).toBe('/panel/entrar/codigo');
          await expectAccessible(page, `panel-code-${viewport}`);
          await fill(page, 'Código de verificação', await codes.next());
          await page.getByRole('button', { name: 'Entrar' }).click();

          await expect.poll(() => new URL(page.url()).pathname).toBe('/panel');
          expect(await page.locator('#available').textContent()).toBe('R$ 1.244,56');
          expect(await page.locator('#payments tr[data-method="pix"] td').last().textContent()).toBe('1 · R$ 10,00');
          await expectAccessible(page, `panel-overview-${viewport}`);
          const cookies = await page.context().cookies();
          const session = cookies.find((c) => c.name === '__Host-panel_session');
          expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });

          for (const [link, path, name] of [
            ['Faturas', '/panel/faturas', 'invoices'],
            ['Extrato', '/panel/extrato', 'statement'],
            ['Clientes', '/panel/clientes', 'customers'],
            ['Métodos de pagamento', '/panel/metodos', 'methods'],
            ['Equipe', '/panel/equipe', 'team'],
            ['Checkout', '/panel/checkout', 'checkout'],
            ['Segurança', '/panel/seguranca', 'security'],
          ] as const) {
            await page.getByRole('link', { name: link }).click();
            await expect.poll(() => new URL(page.url()).pathname).toBe(path);
            await expectAccessible(page, `panel-${name}-${viewport}`);
          }

          // New API keys (step-up): the old key and its token stop at once, the new secret (shown once) works.
          await page.getByRole('link', { name: 'Chaves de API' }).click();
          await expect.poll(() => new URL(page.url()).pathname).toBe('/panel/chaves');
          await expectAccessible(page, `panel-keys-${viewport}`);
          await fill(page, 'Código de verificação', await codes.next());
          await page.getByRole('button', { name: 'Gerar novas chaves' }).click();
          await expect.poll(() => page.title()).toContain('Novas chaves de API');
          await expectAccessible(page, `panel-new-keys-${viewport}`);
          const fresh = {
            account_id: account.account_id,
            public_key: (await page.locator('#public-key').textContent()) ?? '',
            secret_key: (await page.locator('#secret-key').textContent()) ?? '',
          };
          expect((await call('POST', '/api/auth', { headers: { authorization: basic(account.public_key, account.secret_key) } })).status).toBe(401);
          expect((await call('GET', '/api/balance', { headers: bearer(oldToken) })).status).toBe(401);
          expect((await call('GET', '/api/balance', { headers: bearer(await tokenFor(fresh)) })).status).toBe(200);

          // The webhook URL (step-up): the first one creates the signing secret, shown once.
          await page.getByRole('link', { name: 'Webhooks' }).click();
          await expect.poll(() => new URL(page.url()).pathname).toBe('/panel/webhooks');
          await expectAccessible(page, `panel-webhooks-${viewport}`);
          await fill(page, 'URL do webhook', 'https://127.0.0.13:8443/painel');
          await fill(page, 'Código de verificação', await codes.next());
          await page.getByRole('button', { name: 'Salvar URL' }).click();
          await expect.poll(() => page.locator('#webhook-secret').count()).toBe(1);
          expect(await page.locator('#webhook-secret').textContent()).toMatch(/^whsec_/);
          await expectAccessible(page, `panel-webhook-secret-${viewport}`);

          // A Pix withdrawal (step-up), through POST /api/pixout/create's use case: reserved at once.
          await page.getByRole('link', { name: 'Saques' }).click();
          await expect.poll(() => new URL(page.url()).pathname).toBe('/panel/saques');
          await expectAccessible(page, `panel-withdrawals-${viewport}`);
          await fill(page, 'Valor (R$)', '234,56');
          await page.getByLabel('Tipo da chave Pix', { exact: true }).selectOption('EMAIL');
          await fill(page, 'Chave Pix', 'fornecedor@example.com');
          await fill(page, 'Código de verificação', await codes.next());
          await page.getByRole('button', { name: 'Pedir saque' }).click();
          await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/panel\/saques\/WD-[A-Z0-9]{12}$/);
          expect(await page.locator('#withdrawal-amount').textContent()).toBe('R$ 234,56');
          expect(await page.getByRole('status').textContent()).toContain('Saque pedido');
          await expectAccessible(page, `panel-withdrawal-${viewport}`);
          const balance = (await call('GET', '/api/balance', { headers: bearer(await tokenFor(fresh)) })).json as { balance: { available: string } };
          expect(balance.balance.available).toBe('1010.00');

          // The audit log lists each action, who and from where.
          await page.getByRole('link', { name: 'Auditoria' }).click();
          await expect.poll(() => new URL(page.url()).pathname).toBe('/panel/auditoria');
          await expectAccessible(page, `panel-audit-${viewport}`);
          const actions = await page.locator('#audit tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-action')));
          expect(actions).toEqual(['withdrawal.requested', 'webhook.configured', 'keys.rotated', 'panel.signed_in', 'panel.enrolled']);

          await page.getByRole('button', { name: 'Sair' }).click();
          await expect.poll(() => new URL(page.url()).pathname).toBe('/panel/entrar');
          await page.goto(new URL('/panel', base).toString());
          expect(new URL(page.url()).pathname).toBe('/panel/entrar');
        },
        { viewport },
      );
    }, 240_000);
  });
}

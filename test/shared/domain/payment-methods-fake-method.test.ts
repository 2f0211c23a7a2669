import { describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../../shared/platform/config';
import { CHARGE_LABELS, CHARGE_METHODS, METHOD_LABELS, PAID_RAILS, PAYMENT_METHODS, type PaymentMethod } from '../../../shared/domain/payment-methods';
import { invoiceItem, invoiceOf } from '../../../shared/adapters/dynamo/invoice-item';
import type { NewInvoice } from '../../../shared/domain/invoice';
import { summarizePayments } from '../../../shared/domain/panel/payments-summary';
import type { LedgerEntry } from '../../../shared/domain/ledger';
import { methodsPage, overviewPage } from '../../../shared/pages/panel/pages';
import { invoicesPage } from '../../../shared/pages/panel/money-pages';
import { simulatedProvider } from '../../../shared/adapters/providers/simulated';
import { simulatedNotificationSchema } from '../../../shared/adapters/providers/simulated-notification';
import { MethodNotServedError, type PaymentProvider } from '../../../shared/ports/payment-provider';
import { createRegistry } from '../../../shared/wiring/adapter-registry';
import { OPERATION_EXAMPLES } from '../../../shared/http/openapi-examples';
import { routeList } from '../../../shared/http/routes';
import { buildOpenApiDocument } from '../../../shared/http/openapi';
import { ROUTE_PORT_GRANTS, routeGrants } from '../../../infra/cdk/table-access';
import { PAID_COMMANDS } from '../../../infra/admin/provider';

/**
 * A fake method added through the registry (issue 45): the registry's rows plus a `wallet` row, and every
 * module of the house sees the facts derived from them (`methodsOf`, the module mocked with its own
 * derivation over the rows). Each derived fact must include the wallet: a list restated by hand anywhere
 * (labels, paid rails, the panel's rows, notifications, the OpenAPI example, the table grants) fails here.
 */
vi.mock('../../../shared/domain/payment-methods', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../shared/domain/payment-methods')>();
  const { z } = await import('zod');
  const wallet = {
    charge: 'wallet',
    label: 'Carteira digital',
    onCheckout: false,
    ceilingCents: 99_999_999,
    ceilingReason: "The wallet's transfers carry at most R$ 999,999.99",
    paidNotice: { type: 'wallet.paid', by: 'reference' },
    viewSchema: z.object({ wallet_link: z.string() }),
    view: (fields: { link: string }) => ({ wallet_link: fields.link }),
    example: { wallet_link: 'https://wallet.example/pay/INV-7KQ2MX' },
    route: {
      path: '/api/wallet/create',
      summary: 'Create a wallet charge',
      description: 'The payer confirms it in the wallet app.',
      bodyFields: { wallet_handle: z.string().min(1).max(40) },
      bodyExample: { wallet_handle: '@maria' },
    },
  } as const;
  const rows = { ...real.METHOD_REGISTRY, wallet } as unknown as Parameters<typeof real.methodsOf>[0];
  return { ...real, ...real.methodsOf(rows) };
});

const WALLET = 'wallet' as PaymentMethod;
const config = parseConfig({ TABLE_NAME: 'payment-gateway-test', MASTER_KEY_SECRET_ID: 'payment-gateway/test/master-key' });
const chrome = { email: 'ana@example.com', csrfToken: 'csrf' };

describe('a method added through the registry (a fake wallet)', () => {
  it('is a setting and a charge method, with its label', () => {
    expect(PAYMENT_METHODS).toContain(WALLET);
    expect(CHARGE_METHODS).toContain('wallet');
    expect((METHOD_LABELS as Record<string, string>).wallet).toBe('Carteira digital');
    expect((CHARGE_LABELS as Record<string, string>).wallet).toBe('Carteira digital');
  });

  it('is a rail an invoice can be paid on, and its item maps its fields and paid rail back', () => {
    expect(PAID_RAILS).toContain('wallet');
    const invoice = {
      accountId: 'acct_1',
      invoiceId: 115532482828339,
      reference: 'INV-7KQ2MX',
      merchantName: 'Loja',
      method: 'wallet',
      status: 'PENDING',
      invoiceNo: '1',
      itemName: 'Camiseta',
      quantity: 1,
      amountCents: 1000,
      discount: 0,
      tax: 0,
      totalCents: 1000,
      dueDate: '2030-01-31',
      createdAt: '2026-11-18T14:02:11.482Z',
      payer: {},
      wallet: { link: 'https://wallet.example/pay/INV-7KQ2MX' },
    } as unknown as NewInvoice;
    const read = invoiceOf({ ...invoiceItem(invoice, Buffer.alloc(32)), status: 'PAID', paidRail: 'wallet' });
    expect(read.paidRail).toBe('wallet');
    expect((read as unknown as Record<string, unknown>).wallet).toEqual({ link: 'https://wallet.example/pay/INV-7KQ2MX' });
  });

  it('is not asked of a provider that does not serve it; choosing one for it fails clearly', () => {
    const walletCall = async () => ({ link: 'https://wallet.example/pay/x' });
    const registry = createRegistry({
      paymentProviders: {
        simulated: () => simulatedProvider({ locationBase: 'https://psp.example' }),
        walletco: () =>
          ({
            ...simulatedProvider({ locationBase: 'https://psp.example' }),
            name: 'walletco',
            charges: { ...simulatedProvider({ locationBase: 'x' }).charges, wallet: walletCall },
          }) as PaymentProvider,
      },
      banks: {},
    });
    expect(registry.paymentProvider(config, 'simulated').name).toBe('simulated');
    expect(() => registry.providerServing(config, WALLET, 'simulated')).toThrow(MethodNotServedError);
    expect(() => registry.providerServing(config, WALLET, 'simulated')).toThrow('The payment provider simulated does not serve wallet charges');
    expect(registry.providerServing(config, WALLET, 'walletco').name).toBe('walletco');
  });

  it('is paid by its own notification (wallet.paid, by reference), beside the names already on the wire', () => {
    const paid = { id: 'ntf_1', type: 'wallet.paid', reference: 'INV-7KQ2MX' };
    expect(simulatedNotificationSchema.safeParse(paid).success).toBe(true);
    expect(simulatedNotificationSchema.safeParse({ id: 'ntf_2', type: 'boleto.paid', reference: 'INV-7KQ2MX' }).success).toBe(true);
    expect(simulatedNotificationSchema.safeParse({ id: 'ntf_3', type: 'pix.paid', txid: 'INV7KQ2MXaZZSMXFtU12SVrRyk7B9QM1' }).success).toBe(true);
    expect(PAID_COMMANDS).toEqual(['pix-paid', 'boleto-paid', 'wallet-paid']);
  });

  it("has its row on the panel's pages: the methods page, the invoices list, and the overview counts its payments", () => {
    expect(methodsPage([{ method: 'wallet', enabled: true }], chrome).html).toContain('Carteira digital: <strong>habilitado</strong>');
    const row = {
      reference: 'INV-7KQ2MX',
      invoiceId: 1,
      invoiceNo: '1',
      itemName: 'x',
      method: 'wallet',
      status: 'PAID',
      totalCents: 1000,
      dueDate: '2030-01-31',
      createdAt: '2026-11-18T14:02:11.482Z',
      payer: {},
    };
    expect(invoicesPage([row], { page: 1, limit: 10 }, chrome).html).toContain('<td>Carteira digital</td>');
    const now = Date.parse('2026-11-18T15:00:00.000Z');
    const payment = {
      type: 'payment',
      availableCents: 1234,
      reservedCents: 0,
      createdAt: '2026-11-18T14:00:00.000Z',
      method: 'wallet',
    } as unknown as LedgerEntry;
    const view = {
      email: 'ana@example.com',
      roleLabel: 'Dona',
      accountName: 'Loja',
      availableCents: 0,
      reservedCents: 0,
      payments: summarizePayments([payment, payment], now - 3_600_000),
    };
    const html = overviewPage(view, chrome).html;
    expect(html).toMatch(/<tr data-method="wallet"><th scope="row">Carteira digital<\/th><td>2 · R\$\s?24,68<\/td>/);
  });

  it('has its charge route, with its OpenAPI example, its place in the document and its table grants', () => {
    const route = routeList.find((r) => r.path === '/api/wallet/create');
    expect(route?.id).toBe('CreateWalletCharge');
    expect(route?.handler).toBe('functions/charges/wallet.ts');
    const example = OPERATION_EXAMPLES.CreateWalletCharge;
    expect(example?.body).toMatchObject({ wallet_handle: '@maria', amount: 100 });
    expect(example?.response).toMatchObject({ invoice: { wallet_link: 'https://wallet.example/pay/INV-7KQ2MX' } });
    const listed = (OPERATION_EXAMPLES.ListInvoices?.response as { invoices: { method: string }[] }).invoices.map((invoice) => invoice.method);
    expect(listed).toEqual(['pix', 'boleto', 'creditcard', 'wallet']);
    const document = buildOpenApiDocument(routeList) as { paths: Record<string, Record<string, { operationId: string }>> };
    expect(document.paths['/api/wallet/create']?.post?.operationId).toBe('CreateWalletCharge');
    expect(ROUTE_PORT_GRANTS.CreateWalletCharge).toEqual([]);
    expect(routeGrants(route as NonNullable<typeof route>).some((grant) => grant.actions.includes('PutItem'))).toBe(true);
  });
});

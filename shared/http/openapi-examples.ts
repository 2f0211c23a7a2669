/**
 * One example per operation of the OpenAPI document (by route id): its request (path and query
 * parameters, body) and its success answer, in the README walk-through's story (Maria's Pix of
 * R$ 190.00, a card charge, a withdrawal of R$ 25.50…). A unit test (test/shared/http/openapi-examples.test.ts)
 * validates each against the schemas the document declares.
 */
import { WEBHOOK_EVENT_TYPES } from '../domain/webhooks';
import { invoiceTextsView } from '../domain/invoice-texts';
import { METHOD_REGISTRY, PAYMENT_METHODS, type PaymentMethod } from '../domain/payment-methods';
import { chargeOperationId, methodChargeRoutes } from './route-table/charges';

/** An operation's example: its request (path and query parameters, body) and its success answer. */
export type OperationExample = {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: unknown;
  response: unknown;
};

const CREATED = '2026-11-18T14:02:11.482Z';
const PAID = '2026-11-18T14:03:21.000Z';
const QR = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAASwAAAEsCAYAAAB5fY51AAAAAklEQVR4AewaftIAAA6Z';
const BR_CODE =
  '00020101021226910014br.gov.bcb.pix2569api.example.com/simulated-psp/v2/cob/1b623e5ab74c499ab56d61fbb216b0315204000053039865802BR5909Loja Demo6009SAO PAULO62070503***630498C3';

const brazil = { id: 76, iso: 'BR', name: 'BRAZIL', nicename: 'Brazil', iso3: 'BRA', numcode: 76, phonecode: 55 };
const saoPaulo = { name: 'São Paulo', uf: 'SP', ibge: 35, ddd: '11,12,13,14,15,16,17,18,19' };

const customerBody = {
  name: 'Maria Silva',
  document: '529.982.247-25',
  document_type: 'CPF',
  email: 'maria@example.com',
  zipcode: '01310-100',
  country_id: 76,
  state: 'SP',
  city: 'São Paulo',
  district: 'Bela Vista',
  street: 'Avenida Paulista',
  number: '1000',
};

const customer = {
  id: 115532481791238,
  name: 'Maria Silva',
  document: '52998224725',
  document_type: 'CPF',
  zipcode: '01310100',
  country: brazil,
  state: saoPaulo,
  city: 'São Paulo',
  district: 'Bela Vista',
  street: 'Avenida Paulista',
  number: '1000',
  email: 'maria@example.com',
  phone: null,
  mobilephone: null,
  created_at: CREATED,
};

/** An invoice of a method, as the query routes show it: Maria's paid charge, with the method's fields as its row's example shows them. */
const invoiceOfMethod = (method: PaymentMethod) => ({
  id: 115532482828339,
  reference: 'INV-7KQ2MX',
  invoice_no: '1001',
  item_name: 'Camiseta',
  quantity: 2,
  amount: '100.00',
  discount: 10,
  tax: 5,
  total: '190.00',
  status: 'PAID',
  due_date: '2030-01-31',
  method: METHOD_REGISTRY[method].charge,
  // The merchant's texts, each from its row (shared/domain/invoice-texts.ts): none given here.
  ...invoiceTextsView({}),
  email: null,
  client: null,
  document: null,
  created_at: CREATED,
  paid_at: PAID,
  canceled_at: null,
  refunded_at: null,
  paid_after_cancel: false,
  paid_amount: '190.00',
  paid_rail: METHOD_REGISTRY[method].charge,
  version: 2,
  ...METHOD_REGISTRY[method].example,
});

const pixInvoice = invoiceOfMethod('pix');

/** The example of each charge route derived from a method's row: the common charge fields and the row's own, and its invoice as created. */
const DERIVED_CHARGE_EXAMPLES: Readonly<Record<string, OperationExample>> = Object.fromEntries(
  PAYMENT_METHODS.filter((method) => methodChargeRoutes[method] !== undefined).map((method): [string, OperationExample] => {
    const row: { route?: { bodyExample: Record<string, unknown> } } = METHOD_REGISTRY[method];
    return [
      chargeOperationId(method),
      {
        body: { amount: 100, quantity: 2, tax: 5, discount: 10, invoice_no: '1004', due_date: '2030-01-31', item_name: 'Camiseta', ...row.route?.bodyExample },
        response: { invoice: { reference: 'INV-7KQ2MX', total: '190.00', due_date: '2030-01-31', status: 'PENDING', ...METHOD_REGISTRY[method].example } },
      },
    ];
  }),
);

/** An event as the events API shows it (issue 29): the event as delivered. */
const LOGGED_EVENT = {
  id: 'evt_3fK9tQ2mZ8xW1vB7nR4cY6hD',
  type: 'invoice.paid',
  created: 1795000000,
  api_version: '2026-10-14',
  data: {
    invoice: {
      reference: 'INV-7KQ2MX',
      invoice_no: '1001',
      total: '190.00',
      status: 'PAID',
      method: 'pix',
      paid_after_cancel: false,
      rail: 'pix',
      paid_amount: '190.00',
      version: 2,
      previous_status: 'PENDING',
    },
  },
};

const withdraw = {
  reference: 'WD-4H7K2M9QXB3P',
  amount: '25.50',
  fee: '1.50',
  netAmount: '25.50',
  endToEndId: 'E1234567820261118140500000000001',
  status: 'PAID',
  pixkey: 'maria@example.com',
  keytype: 'EMAIL',
  description: 'Fornecedor',
  created_at: CREATED,
  paid_at: PAID,
  canceled_at: null,
  version: 2,
  loquidAmount: '25.50',
  entoend: 'E1234567820261118140500000000001',
};

const cardForm = {
  creditcard_holder: 'ANA SILVA',
  creditcard_number: '4111111111111111',
  creditcard_cvv: '123',
  creditcard_month: '12',
  creditcard_year: '2030',
  creditcard_brand: 'visa',
  installments: '1',
  csrf_token: 'q3Yh0c8Vt1nKpW2xZr5mLs7dBf9gHj4E',
};

const checkoutLink = { reference: 'CHK-7KQ2MXHP', token: 'SUqF1wPxyGQ12CsgbgJrdQFJUH-MU1MA' };

const SECRET_NOTICE = 'Store this secret now: it is shown only once. Verify every webhook with it (Service-Signature header).';

const PANEL_CSRF = 'Zq3vN0m2cXbY8uTfWk1pLr6sHd4eGa9o';
const PANEL_INVITE_TOKEN = 'q9X2mVbT1cN8zR4kL0pW7sHfY3eJdG6uA5oQiE2tBnM';
const panelPage = (title: string) =>
  `<!doctype html>\n<html lang="pt-BR">\n<head>\n<meta charset="utf-8">\n<title>${title} · Painel</title>\n</head>\n<body>…</body>\n</html>\n`;
const panelRedirect = (location: string) => `<!-- 303 See Other, Location: ${location} -->\n`;

export const OPERATION_EXAMPLES: Readonly<Record<string, OperationExample>> = {
  AuthToken: {
    response: {
      success: {
        token: 'pgt_eyJhIjoiYWNjdF9zcjluNHExNW94cmE3dGJpMGY2ayIsInYiOjEsImkiOjE3OTU0MzE2NDAsImUiOjE3OTgwMjM2NDB9.96hVwNlVGdRnM3shi1tVmvNS_QL5akh1_uHDzlOvRts',
        token_type: 'Bearer',
        expires_in: 2592000,
      },
    },
  },
  GetBalance: { response: { balance: { available: '163.00', reserved: '11.50', currency: 'BRL' } } },
  ListBalanceTransactions: {
    query: { limit: 4, type: 'withdrawal_fee', start: '2026-11-01', end: '2026-11-30' },
    response: {
      transactions: [
        {
          id: 'txn_8aL2pW5nQ1zX7cV3bM9kT4rJ',
          type: 'withdrawal_fee',
          amount: '-1.50',
          reserved: '1.50',
          reference: 'WD-4H7K2M9QXB3P',
          description: 'Fee of WD-4H7K2M9QXB3P',
          created_at: CREATED,
        },
      ],
      pagination: { page: 1, limit: 4 },
    },
  },
  CreateCustomer: { body: customerBody, response: { customer } },
  GetCustomer: { params: { id: '115532481791238' }, response: { customer } },
  ListCustomers: { query: { name: 'maria', limit: 10 }, response: { customers: [customer], pagination: { page: 1, limit: 10 } } },
  ListCountries: {
    response: { countries: [brazil, { id: 620, iso: 'PT', name: 'PORTUGAL', nicename: 'Portugal', iso3: 'PRT', numcode: 620, phonecode: 351 }] },
  },
  ListStates: { response: { states: [{ name: 'Acre', uf: 'AC', ibge: 12, ddd: '68' }, saoPaulo] } },
  SearchCep: {
    params: { cep: '01310-100' },
    response: { address: { zipcode: '01310100', state: 'SP', city: 'São Paulo', street: 'Avenida Paulista', district: 'Bela Vista' } },
  },
  CreatePixCharge: {
    body: { amount: 100, quantity: 2, tax: 5, discount: 10, invoice_no: '1001', due_date: '2030-01-31', item_name: 'Camiseta' },
    response: {
      invoice: { reference: 'INV-7KQ2MX', total: '190.00', txid: 'INV7KQ2MXaZZSMXFtU12SVrRyk7B9QM1', due_date: '2030-01-31', copy: BR_CODE, qrcode: QR },
    },
  },
  CreateBoletoCharge: {
    body: { amount: 100, quantity: 2, tax: 5, discount: 10, invoice_no: '1003', due_date: '2030-01-31', item_name: 'Camiseta', customer: 115532481791238 },
    response: {
      invoice: {
        reference: 'INV-9EBNDH',
        total: '190.00',
        due_date: '2030-01-31',
        status: 'PENDING',
        boleto: 'https://api.example.com/boleto/INV-9EBNDH/LPlzd2-A5DOVzmpyZJexsphdKWhy1VYU',
        barcode: '99999164000000190000115532484548150000000000',
        digitable: '99990115553248454815400000000000916400000019000',
      },
    },
  },
  CreateCardCharge: {
    body: {
      amount: 50,
      quantity: 1,
      tax: 0,
      discount: 0,
      invoice_no: '1002',
      due_date: '2030-01-31',
      item_name: 'Caneca',
      email: 'maria@example.com',
      installments: 1,
      creditcard_holder: 'MARIA SILVA',
      creditcard_number: '4111111111111111',
      creditcard_cvv: '123',
      creditcard_month: 12,
      creditcard_year: 2030,
      creditcard_brand: 'visa',
    },
    response: {
      invoice: {
        reference: 'INV-MX4KJA',
        total: '50.00',
        due_date: '2030-01-31',
        status: 'PAID',
        transaction: { id: 'sim_O4993TIYm4S6pnmmSxanJypc', amount: '50.00', status: 1, description: 'Caneca', method: 'creditcard' },
      },
    },
  },
  // An invoice of each method of the registry (its row's example fields).
  ListInvoices: { query: { limit: 5, invoice_no: '1001' }, response: { invoices: PAYMENT_METHODS.map(invoiceOfMethod), pagination: { page: 1, limit: 5 } } },
  GetInvoice: { params: { invoice_id: 115532482828339 }, response: { invoice: pixInvoice } },
  CancelInvoice: {
    params: { invoice_id: 115532482828339 },
    response: { success: true, invoice: { ...pixInvoice, status: 'CANCELED', paid_at: null, canceled_at: CREATED, paid_amount: null, paid_rail: null } },
  },
  GetInvoiceByReference: { params: { ref_id: 'INV-7KQ2MX' }, response: { invoice: pixInvoice } },
  GetPixInvoiceByReference: { params: { ref: 'INV-7KQ2MX' }, response: { invoice: pixInvoice } },
  GetPixInvoiceByTxid: { params: { txid: 'INV7KQ2MXaZZSMXFtU12SVrRyk7B9QM1' }, response: { invoice: pixInvoice } },
  CreateWithdraw: {
    body: { amount: 25.5, pixkey: 'maria@example.com', keytype: 'EMAIL', description: 'Fornecedor' },
    response: {
      success: true,
      message: 'Withdraw requested: amount and fee are reserved until the bank pays or refuses it',
      withdraw: { ...withdraw, status: 'PENDING', endToEndId: null, entoend: null, paid_at: null },
    },
  },
  GetWithdraw: { params: { txid: 'WD-4H7K2M9QXB3P' }, response: { success: true, withdraw } },
  ListWithdrawals: { query: { status: 'PAID', page: 1 }, response: { success: true, withdrawals: [withdraw] } },
  GetWebhook: {
    response: {
      webhook: {
        url: 'https://merchant.example/hooks',
        secret_configured: true,
        events: [...WEBHOOK_EVENT_TYPES],
      },
    },
  },
  PutWebhook: {
    body: { url: 'https://merchant.example/hooks', events: ['invoice.paid', 'pixout.paid'] },
    response: {
      webhook: {
        url: 'https://merchant.example/hooks',
        events: ['invoice.paid', 'pixout.paid'],
        secret: 'whsec_TQGPMuhphrJGBMU2Vf-hrFijCRdDw7jJMsU57rbie3Q',
        secret_notice: SECRET_NOTICE,
      },
    },
  },
  RotateWebhookSecret: { response: { webhook: { secret: 'whsec_CsH_0kjKeCkokz21Dcl8c6wyURP23TiwPyATo03cV_c', secret_notice: SECRET_NOTICE } } },
  TestWebhook: { response: { event_id: 'evt_Zc72VebRdnTWl9cFHbrCVScp', status: 'queued' } },
  ListWebhookDeliveries: {
    response: {
      deliveries: [
        {
          event_id: 'evt_Zc72VebRdnTWl9cFHbrCVScp',
          type: 'ping',
          url: 'https://merchant.example/hooks',
          status: 'succeeded',
          attempts: 1,
          next_attempt_at: null,
          last_status: 200,
          last_error: null,
          created_at: CREATED,
          updated_at: PAID,
        },
      ],
    },
  },
  ListEvents: {
    query: { delivery_status: 'failed', limit: 10 },
    response: { events: [{ ...LOGGED_EVENT, delivery_status: 'failed' }], pagination: { page: 1, limit: 10 } },
  },
  GetEvent: {
    params: { id: LOGGED_EVENT.id },
    response: {
      event: {
        ...LOGGED_EVENT,
        delivery_status: 'failed',
        delivery: {
          url: 'https://merchant.example/hooks',
          attempts: [
            { at: '2026-11-18T14:05:31.000Z', http_status: 503, error: null, duration_ms: 412 },
            { at: '2026-11-18T14:06:33.000Z', http_status: null, error: 'timeout after 10000 ms', duration_ms: 10001 },
          ],
          next_attempt_at: null,
          series: 1,
        },
      },
    },
  },
  RedeliverEvent: { params: { id: LOGGED_EVENT.id }, response: { event_id: LOGGED_EVENT.id, status: 'queued' } },
  ProviderNotification: {
    params: { name: 'simulated' },
    body: { id: 'ntf_5mN8qR2tW7yZ1xC4vB6nL9kH', type: 'pix.paid', txid: 'INV7KQ2MXaZZSMXFtU12SVrRyk7B9QM1', occurred_at: PAID },
    response: { received: true, applied: true },
  },
  ProviderPixCallback: {
    params: { name: 'apipix', token: 'q3Zt8WcVx1LmN0pR5sKd7YhB2gJ4fTa6' },
    body: {
      pix: [{ endToEndId: 'E12345678202611231420abcdEFGH1234', txid: 'INV7KQ2MXaZZSMXFtU12SVrRyk7B9QM1', valor: '110.00', horario: PAID }],
    },
    response: { received: true, charges: 1, applied: 1 },
  },
  BoletoPage: {
    params: { reference: 'INV-9EBNDH', token: 'LPlzd2-A5DOVzmpyZJexsphdKWhy1VYU' },
    response:
      '<!DOCTYPE html>\n<html lang="pt-BR">\n  <head>\n    <meta charset="utf-8">\n    <title>Boleto INV-9EBNDH</title>\n  </head>\n  <body>…</body>\n</html>\n',
  },
  CheckoutEntry: {
    body: {
      public_key: 'PUB-2b7f0c1e9a4d4f7c8e3b6a5d1c0f9e8d',
      tx_ref: 'order-1001',
      callback_url: 'https://shop.example/checkout/done',
      title: 'Camiseta azul',
      quantity: '2',
      amount: '49.90',
      email: 'ana@example.com',
      first_name: 'Ana',
      last_name: 'Silva',
      product_reference: 'SKU-1',
    },
    response:
      '<!doctype html>\n<html lang="pt-BR"><head><meta charset="utf-8"><title>Redirecionando…</title></head><body><a href="/checkout/CHK-7KQ2MXHP/SUqF1wPxyGQ12CsgbgJrdQFJUH-MU1MA">Continuar</a></body></html>\n',
  },
  CheckoutPage: {
    params: checkoutLink,
    response:
      '<!doctype html>\n<html lang="pt-BR">\n<head>\n<meta charset="utf-8">\n<title>Pagamento: Camiseta azul · Loja Demo</title>\n</head>\n<body>…</body>\n</html>\n',
  },
  CheckoutCardPayment: {
    params: checkoutLink,
    body: cardForm,
    response:
      '<!doctype html>\n<html lang="pt-BR"><head><meta charset="utf-8"><title>Redirecionando…</title></head><body><a href="https://shop.example/checkout/done?tx_ref=order-1001&amp;status=PAID">Continuar</a></body></html>\n',
  },
  CheckoutStatus: { params: checkoutLink, response: { status: 'PAID', redirect_url: 'https://shop.example/checkout/done?tx_ref=order-1001&status=PAID' } },
  GetCheckout: {
    params: { tx_ref: 'order-1001' },
    response: {
      checkout: {
        tx_ref: 'order-1001',
        reference: 'CHK-7KQ2MXHP',
        status: 'PAID',
        title: 'Camiseta azul',
        quantity: 2,
        amount: '49.90',
        total: '99.80',
        email: 'ana@example.com',
        first_name: 'Ana',
        last_name: 'Silva',
        payment_type: 'pix',
        created_at: CREATED,
        paid_at: PAID,
        product: { reference: 'SKU-1', name: 'Camiseta' },
        invoice_reference: 'INV-7KQ2MY',
      },
    },
  },
  OpenApiDocument: { response: 'openapi: "3.1.0"\ninfo:\n  title: "Payment Gateway API"\n  version: "2026-10-14"\n…\n' },
  // The merchant panel (issue 27): pages and forms of a browser.
  PanelSignInPage: { response: panelPage('Entrar') },
  PanelSignIn: {
    body: { csrf_token: PANEL_CSRF, email: 'ana@example.com', password: 'uma frase longa e boa 2026' },
    response: panelRedirect('/panel/entrar/codigo'),
  },
  PanelCodePage: { response: panelPage('Código de verificação') },
  PanelCode: { body: { csrf_token: PANEL_CSRF, code: '287082' }, response: panelRedirect('/panel') },
  PanelForgotPage: { response: panelPage('Esqueci a senha') },
  PanelForgotPassword: { body: { csrf_token: PANEL_CSRF, email: 'ana@example.com' }, response: panelPage('Esqueci a senha') },
  PanelResetPage: { params: { token: PANEL_INVITE_TOKEN }, response: panelPage('Nova senha') },
  PanelResetPassword: {
    params: { token: PANEL_INVITE_TOKEN },
    body: { csrf_token: PANEL_CSRF, password: 'uma frase longa e boa 2026', confirmation: 'uma frase longa e boa 2026', code: '287082' },
    response: panelPage('Senha nova salva'),
  },
  PanelInvitePage: { params: { token: PANEL_INVITE_TOKEN }, response: panelPage('Aceitar convite') },
  PanelAcceptInvite: {
    params: { token: PANEL_INVITE_TOKEN },
    body: {
      csrf_token: PANEL_CSRF,
      enrollment: 'v1.kD3f9Q.mX2…',
      password: 'uma frase longa e boa 2026',
      confirmation: 'uma frase longa e boa 2026',
      code: '287082',
    },
    response: panelRedirect('/panel/entrar?pronto=1'),
  },
  PanelSignOut: { body: { csrf_token: PANEL_CSRF }, response: panelRedirect('/panel/entrar') },
  PanelOverview: { response: panelPage('Visão geral') },
  PanelKeysPage: { response: panelPage('Chaves de API') },
  PanelCustomers: { query: { page: 1, name: 'Ana' }, response: panelPage('Clientes') },
  PanelMethods: { response: panelPage('Métodos de pagamento') },
  PanelCustomer: { params: { id: '117220174875943' }, response: panelPage('Cliente 117220174875943') },
  PanelRotateKeys: { body: { csrf_token: PANEL_CSRF, code: '287082' }, response: panelPage('Novas chaves de API') },
  PanelAuditLog: { response: panelPage('Auditoria') },
  PanelWebhooksPage: { response: panelPage('Webhooks') },
  PanelSetWebhook: { body: { csrf_token: PANEL_CSRF, url: 'https://shop.example/webhooks/gateway', code: '287082' }, response: panelPage('Webhooks') },
  PanelRotateWebhookSecret: { body: { csrf_token: PANEL_CSRF, code: '287082' }, response: panelPage('Webhooks') },
  PanelWithdrawals: { query: { page: 1, status: 'PAID' }, response: panelPage('Saques') },
  PanelRequestWithdrawal: {
    body: { csrf_token: PANEL_CSRF, amount: '1.250,00', keytype: 'EMAIL', pixkey: 'financeiro@loja.example', description: 'Fornecedor', code: '287082' },
    response: panelRedirect('/panel/saques/WD-7KQ2MY4HX9PA?novo=1'),
  },
  PanelTeam: { response: panelPage('Equipe') },
  PanelTestWebhook: { body: { csrf_token: PANEL_CSRF }, response: panelPage('Webhooks') },
  PanelCheckoutPage: { response: panelPage('Checkout') },
  PanelSetCheckoutSigning: { body: { csrf_token: PANEL_CSRF, require: 'on', code: '492039' }, response: panelPage('Checkout') },
  PanelRotateCheckoutSecret: { body: { csrf_token: PANEL_CSRF, code: '492039' }, response: panelPage('Checkout') },
  PanelRedeliverWebhook: { body: { csrf_token: PANEL_CSRF, event: 'evt_Zc72VebRdnTWl9cFHbrCVScp' }, response: panelPage('Webhooks') },
  PanelSecurity: { response: panelPage('Segurança') },
  PanelChangePassword: {
    body: {
      csrf_token: PANEL_CSRF,
      current: 'uma frase longa e boa 2026',
      password: 'outra frase longa e boa 2027',
      confirmation: 'outra frase longa e boa 2027',
    },
    response: panelRedirect('/panel/entrar'),
  },
  PanelSignOutEverywhere: { body: { csrf_token: PANEL_CSRF }, response: panelRedirect('/panel/entrar') },
  PanelStartNewAuthenticator: { body: { csrf_token: PANEL_CSRF, code: '287082' }, response: panelPage('Novo autenticador') },
  PanelConfirmNewAuthenticator: { body: { csrf_token: PANEL_CSRF, enrollment: 'v1.kD3f9Q.mX2…', code: '481516' }, response: panelPage('Segurança') },
  PanelInvitePerson: { body: { csrf_token: PANEL_CSRF, email: 'bruno@example.com', role: 'finance', code: '287082' }, response: panelPage('Equipe') },
  PanelChangeRole: {
    body: { csrf_token: PANEL_CSRF, person: 'pp_7kq2my4hx9pa3b6n8rc2', role: 'admin', code: '287082' },
    response: panelRedirect('/panel/equipe'),
  },
  PanelRemovePerson: { body: { csrf_token: PANEL_CSRF, person: 'pp_7kq2my4hx9pa3b6n8rc2', code: '287082' }, response: panelRedirect('/panel/equipe') },
  PanelInvoices: { query: { page: 1, limit: 10, invoice_no: 'ORD-2026-0042' }, response: panelPage('Faturas') },
  PanelInvoice: { params: { reference: 'INV-7KQ2MY' }, response: panelPage('Fatura INV-7KQ2MY') },
  PanelStatement: { query: { page: 1, limit: 10, type: 'payment', start: '2026-11-01', end: '2026-11-30' }, response: panelPage('Extrato') },
  PanelStatementCsv: {
    query: { type: 'payment', start: '2026-11-01', end: '2026-11-30' },
    response:
      'id,created_at,type,amount,reserved,reference,description\r\ntxn_7KQ2MY4HX9PA3B6N8RC2VD5E,2026-11-20T14:03:11.512Z,payment,198.45,0.00,INV-7KQ2MY,Payment of INV-7KQ2MY (pix)\r\n',
  },
  PanelWithdrawal: { params: { reference: 'WD-7KQ2MY4HX9PA' }, query: { novo: '1' }, response: panelPage('Saque WD-7KQ2MY4HX9PA') },
  ...DERIVED_CHARGE_EXAMPLES,
};

import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { handler as boletoHandler } from '../functions/charges/boleto';
import { handler as cardHandler } from '../functions/charges/card';
import { handler as pixHandler } from '../functions/charges/pix';
import { handler as createCustomerHandler } from '../functions/customers/create';
import { handler as getCustomerHandler } from '../functions/customers/get';
import { handler as listCustomersHandler } from '../functions/customers/list';
import { handler as invoiceByIdHandler } from '../functions/invoices/get-by-id';
import { handler as invoiceByReferenceHandler } from '../functions/invoices/get-by-reference';
import { handler as listInvoicesHandler } from '../functions/invoices/list';
import { handler as pixByTxidHandler } from '../functions/invoices/pix-by-txid';
import { handler as notificationHandler } from '../functions/provider/notifications';
import type { AnyRoute } from '../shared/http/route';
import { SIMULATED_CARDS, SIMULATED_SIGNATURE_HEADER } from '../shared/adapters/providers/simulated';
import { routes } from '../shared/http/routes';
import type { Runtime } from '../shared/wiring/runtime';
import { providerNotificationSecret } from '../shared/adapters/secrets/provider-credentials';
import { signatureHeader } from '../shared/domain/hmac-header';
import { keys } from '../shared/adapters/dynamo/keys';
import { itemSize, readUnits, writeUnits } from './item-size';
import { callRoute, expectStatus, type Reply, type RouteHandler } from './routes';
import { type Account, type Scenario, WARM_IP } from './scenarios';

/**
 * Scenarios of the customer, charge, invoice and provider-notification routes: each calls the real
 * Lambda handler in-process with an API Gateway v2 event, like the scenarios of scenarios.ts.
 */

const handlers = {
  createCustomer: createCustomerHandler,
  getCustomer: getCustomerHandler,
  listCustomers: listCustomersHandler,
  createPix: pixHandler,
  createBoleto: boletoHandler,
  createCard: cardHandler,
  getInvoice: invoiceByIdHandler,
  getInvoiceByReference: invoiceByReferenceHandler,
  getPixByTxid: pixByTxidHandler,
  listInvoices: listInvoicesHandler,
  providerNotification: notificationHandler,
} satisfies Partial<Record<keyof typeof routes, RouteHandler>>;

type RouteName = keyof typeof handlers;

/** How many customers and invoices the list scenarios' accounts hold (the lists answer the newest 10). */
export const LISTED = 30;
const PAGE = 10;
/** The provider's address, for the notification route (it counts no calls per IP). */
const PROVIDER_IP = '203.0.113.7';

type CallOptions = { params?: Record<string, string>; query?: string; body?: unknown; idempotencyKey?: string; headers?: Record<string, string> };

/** Calls a route's handler as API Gateway would: the path filled from the template, the routeKey the template's. */
export function call(name: RouteName, account: Account | undefined, options: CallOptions = {}): Promise<Reply> {
  const route: AnyRoute = routes[name];
  const path = route.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_, param: string) => encodeURIComponent(options.params?.[param] ?? ''));
  return callRoute({
    handler: handlers[name],
    routeId: route.id,
    method: route.method === 'GET' ? 'GET' : 'POST',
    path: options.query ? `${path}?${options.query}` : path,
    template: route.path,
    ...(options.params ? { pathParameters: options.params } : {}),
    headers: {
      ...(account ? { authorization: `Bearer ${account.token}` } : {}),
      ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
    sourceIp: account ? WARM_IP : PROVIDER_IP,
  });
}

export function json<T>(reply: Reply): T {
  return JSON.parse(reply.body) as T;
}

function freshKey(): string {
  return `bench-${randomUUID()}`;
}

/** Tomorrow (UTC) as YYYY-MM-DD: never before Brazil's today, which the due-date rule checks. */
function tomorrow(): string {
  return new Date(Date.now() + 24 * 3600 * 1000).toISOString().slice(0, 10);
}

const ADDRESS = { zipcode: '01310-100', country_id: 76, state: 'SP', city: 'São Paulo', district: 'Bela Vista', street: 'Avenida Paulista', number: '1000' };

function customerBody(n: number) {
  return {
    name: `Cliente Bench ${n}`,
    document: '529.982.247-25',
    document_type: 'CPF',
    email: `cliente${n}@example.com`,
    ...ADDRESS,
    mobilephone: '+55 11 98888-7777',
  };
}

/** The common charge fields (spec 2.1): total (100 × 2) + 5 % − 10 % = 189.00. */
function chargeBody(n: number) {
  return { amount: 100, quantity: 2, tax: 5, discount: 10, invoice_no: `BENCH-${n}-${randomUUID().slice(0, 8)}`, due_date: tomorrow(), item_name: 'Camiseta' };
}

export function pixBody(n: number) {
  return { ...chargeBody(n), email: 'pagador@example.com', client: 'Maria Silva', document: '529.982.247-25' };
}

function boletoBody(n: number, customer: number) {
  return { ...chargeBody(n), customer };
}

function cardBody(n: number) {
  return {
    ...chargeBody(n),
    email: 'comprador@example.com',
    installments: 1,
    creditcard_holder: 'MARIA SILVA',
    creditcard_number: SIMULATED_CARDS.approved,
    creditcard_cvv: '123',
    creditcard_month: 12,
    creditcard_year: new Date().getUTCFullYear() + 2,
    creditcard_brand: 'visa',
  };
}

export type Charge = { reference: string; txid?: string; total?: string };

async function createCustomer(scenario: string, account: Account, n: number, idempotencyKey?: string): Promise<number> {
  const reply = expectStatus(scenario, await call('createCustomer', account, { body: customerBody(n), ...(idempotencyKey ? { idempotencyKey } : {}) }), 200);
  return json<{ customer: { id: number } }>(reply).customer.id;
}

export async function createCharge(
  scenario: string,
  kind: 'createPix' | 'createBoleto' | 'createCard',
  account: Account,
  body: object,
  idempotencyKey = freshKey(),
): Promise<Charge> {
  const reply = expectStatus(scenario, await call(kind, account, { body, idempotencyKey }), 200);
  if (reply.headers['idempotent-replayed']) throw new Error(`${scenario}: a fresh key was answered as a replay`);
  return json<{ invoice: Charge }>(reply).invoice;
}

/**
 * Sends the simulated provider's signed `pix.paid` notification of one charge to the real notification
 * handler, as the provider would (a fresh notification id, signed with the provider's credential now).
 */
export async function notifyPixPaid(txid: string, providerSecret: string, notificationId = `ntf_${randomUUID()}`): Promise<Reply> {
  const body = JSON.stringify({ id: notificationId, type: 'pix.paid', txid });
  const signature = signatureHeader(body, providerSecret, Math.floor(Date.now() / 1000));
  return call('providerNotification', undefined, { params: { name: 'simulated' }, body, headers: { [SIMULATED_SIGNATURE_HEADER]: signature } });
}

/** One item's size, as DynamoDB counts it, and what writing and reading it costs. */
export type ItemSizeRow = { item: string; bytes: number; writeUnits: number; strongReadUnits: number };

export type PaymentFixtures = {
  customerPlain: Account;
  customerIdempotent: Account;
  /** An account with LISTED customers, and one of them. */
  directory: Account;
  customerId: number;
  /** The account the charges are created on, and its customer with a full address (for boletos). */
  charges: Account;
  boletoCustomer: number;
  /** An account with LISTED invoices (Pix, boleto and card in turn), and one of its Pix invoices. */
  invoices: Account;
  pixInvoice: { id: number; reference: string; txid: string };
  /** One PENDING Pix charge per request of the notification scenario, and the provider's signing secret. */
  pendingTxids: string[];
  providerSecret: string;
  itemSizes: ItemSizeRow[];
};

/** Accounts, customers, invoices and pending Pix charges, made through the real handlers before measuring. */
export async function preparePaymentFixtures(
  runtime: Runtime,
  newAccount: (name: string) => Promise<Account>,
  notifications: number,
  progress: (line: string) => void,
): Promise<PaymentFixtures> {
  const { db, config } = runtime;
  const setup = 'payment fixtures';

  progress(`creating ${LISTED} customers and ${LISTED} invoices for the list and lookup scenarios`);
  const directory = await newAccount('Bench customers');
  const customerIds: number[] = [];
  for (let i = 0; i < LISTED; i += 1) customerIds.push(await createCustomer(setup, directory, i));
  const customerId = customerIds[Math.floor(LISTED / 2)] ?? 0;

  const invoices = await newAccount('Bench invoices');
  const payer = await createCustomer(setup, invoices, 0);
  let lastPix: Charge | undefined;
  let lastPixKey = '';
  const sized: Partial<Record<'pix' | 'boleto' | 'card', Charge>> = {};
  for (let i = 0; i < LISTED; i += 1) {
    if (i % 3 === 0) {
      lastPixKey = freshKey();
      lastPix = await createCharge(setup, 'createPix', invoices, pixBody(i), lastPixKey);
      sized.pix = lastPix;
    } else if (i % 3 === 1) sized.boleto = await createCharge(setup, 'createBoleto', invoices, boletoBody(i, payer));
    else sized.card = await createCharge(setup, 'createCard', invoices, cardBody(i));
  }
  if (!lastPix?.txid) throw new Error(`${setup}: no Pix invoice`);
  const byReference = json<{ invoice: { id: number } }>(
    expectStatus(setup, await call('getInvoiceByReference', invoices, { params: { ref_id: lastPix.reference } }), 200),
  );
  const pixInvoice = { id: byReference.invoice.id, reference: lastPix.reference, txid: lastPix.txid };

  const charges = await newAccount('Bench charges');
  const boletoCustomer = await createCustomer(setup, charges, 0);

  progress(`creating ${notifications} pending Pix charges for the notification scenario`);
  const notified = await newAccount('Bench notifications');
  const pendingTxids: string[] = [];
  for (let i = 0; i < notifications; i += 1) {
    const charge = await createCharge(setup, 'createPix', notified, pixBody(i));
    if (!charge.txid) throw new Error(`${setup}: a Pix charge without txid`);
    pendingTxids.push(charge.txid);
  }
  const provider = 'simulated';
  const secretId = config.payments.credentialsSecretId;
  if (secretId !== process.env.PROVIDER_SECRET_ID)
    throw new Error(`${setup}: the runtime reads provider secret ${secretId}, the local stack made ${process.env.PROVIDER_SECRET_ID}`);
  const providerSecret = await providerNotificationSecret(secretId, provider);

  // What the writes and reads of these routes carry, measured on the stored items.
  const stored = async (key: { PK: string; SK: string }) =>
    (await db.send(new GetCommand({ TableName: config.tableName, Key: key, ConsistentRead: true }))).Item;
  const rows: Array<[string, { PK: string; SK: string }]> = [
    ['customer (full address, sealed CPF)', keys.customer(directory.keys.account_id, customerId)],
    ['invoice, Pix (BR Code and QR code PNG)', keys.invoice(lastPix.reference)],
    ['invoice, boleto', keys.invoice(sized.boleto?.reference ?? '')],
    ['invoice, card', keys.invoice(sized.card?.reference ?? '')],
    ['idempotency record of a Pix creation (the answer kept for replay)', keys.idempotency(invoices.keys.account_id, lastPixKey)],
    ['invoice id pointer (INVID#)', keys.invoiceIdReservation(pixInvoice.id)],
    ['account item (returned by the gate on write routes)', keys.account(charges.keys.account_id)],
  ];
  const itemSizes: ItemSizeRow[] = [];
  for (const [item, key] of rows) {
    const found = await stored(key);
    if (!found) throw new Error(`${setup}: ${item} not found`);
    const bytes = itemSize(found);
    itemSizes.push({ item, bytes, writeUnits: writeUnits(bytes), strongReadUnits: readUnits(bytes) });
  }

  return {
    customerPlain: await newAccount('Bench customer plain'),
    customerIdempotent: await newAccount('Bench customer idempotent'),
    directory,
    customerId,
    charges,
    boletoCustomer,
    invoices,
    pixInvoice,
    pendingTxids,
    providerSecret,
    itemSizes,
  };
}

/** The scenarios of the customer, charge, invoice and notification routes, in the order they are reported. */
export function paymentScenarios(fx: PaymentFixtures, budget: Scenario['budget']): Scenario[] {
  const route = (scenario: Omit<Scenario, 'group' | 'budget'>): Scenario => ({ ...scenario, group: 'route', ...(budget ? { budget } : {}) });
  return [
    route({
      id: 'customer-create',
      title: 'POST /api/customer, no Idempotency-Key',
      run: async (i) => void (await createCustomer('customer-create', fx.customerPlain, i)),
    }),
    route({
      id: 'customer-create-idempotent',
      title: 'POST /api/customer, fresh Idempotency-Key',
      run: async (i) => void (await createCustomer('customer-create-idempotent', fx.customerIdempotent, i, freshKey())),
    }),
    route({
      id: 'customer-get',
      title: 'GET /api/customer/{id}',
      run: async () => void expectStatus('customer-get', await call('getCustomer', fx.directory, { params: { id: String(fx.customerId) } }), 200),
    }),
    route({
      id: 'customer-list',
      title: `GET /api/customers, page of ${PAGE} of ${LISTED}`,
      run: async () => {
        const reply = expectStatus('customer-list', await call('listCustomers', fx.directory, { query: `page=1&limit=${PAGE}` }), 200);
        const listed = json<{ customers: unknown[] }>(reply).customers.length;
        if (listed !== PAGE) throw new Error(`customer-list: ${listed} customers listed, ${PAGE} expected`);
      },
    }),
    route({
      id: 'pix-create',
      title: 'POST /api/pix/create, fresh Idempotency-Key',
      run: async (i) => void (await createCharge('pix-create', 'createPix', fx.charges, pixBody(i))),
    }),
    route({
      id: 'boleto-create',
      title: 'POST /api/boleto/create, fresh Idempotency-Key',
      run: async (i) => void (await createCharge('boleto-create', 'createBoleto', fx.charges, boletoBody(i, fx.boletoCustomer))),
    }),
    route({
      id: 'card-create',
      title: 'POST /api/creditcard/create, fresh Idempotency-Key',
      run: async (i) => void (await createCharge('card-create', 'createCard', fx.charges, cardBody(i))),
    }),
    route({
      id: 'invoice-get',
      title: 'GET /api/invoice/{invoice_id} (a Pix invoice)',
      run: async () => void expectStatus('invoice-get', await call('getInvoice', fx.invoices, { params: { invoice_id: String(fx.pixInvoice.id) } }), 200),
    }),
    route({
      id: 'invoice-get-ref',
      title: 'GET /api/invoice/ref/{ref_id} (a Pix invoice)',
      run: async () =>
        void expectStatus('invoice-get-ref', await call('getInvoiceByReference', fx.invoices, { params: { ref_id: fx.pixInvoice.reference } }), 200),
    }),
    route({
      id: 'pix-get-txid',
      title: 'GET /api/pix/txid/{txid}',
      run: async () => void expectStatus('pix-get-txid', await call('getPixByTxid', fx.invoices, { params: { txid: fx.pixInvoice.txid } }), 200),
    }),
    route({
      id: 'invoice-list',
      title: `GET /api/invoices, page of ${PAGE} of ${LISTED}`,
      run: async () => {
        const reply = expectStatus('invoice-list', await call('listInvoices', fx.invoices, { query: `page=1&limit=${PAGE}` }), 200);
        const listed = json<{ invoices: unknown[] }>(reply).invoices.length;
        if (listed !== PAGE) throw new Error(`invoice-list: ${listed} invoices listed, ${PAGE} expected`);
      },
    }),
    route({
      id: 'notification-pix-paid',
      title: 'POST /provider/simulated/notifications, pix.paid (PENDING → PAID)',
      run: async (i) => {
        const txid = fx.pendingTxids[i];
        if (!txid) throw new Error(`notification-pix-paid: no pending Pix charge for request ${i}`);
        const reply = expectStatus('notification-pix-paid', await notifyPixPaid(txid, fx.providerSecret), 200);
        if (!json<{ applied: boolean }>(reply).applied) throw new Error('notification-pix-paid: the notification moved nothing');
      },
    }),
  ];
}

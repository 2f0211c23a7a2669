import * as z from 'zod';
import { moneyString } from './money-text';
import { formatCents } from './money';

/**
 * The payment methods, named once (issue 32): each method's row says everything the house derives from
 * it: its account setting (`card`, what `account create --methods` and the account item hold) and
 * charge name (`creditcard`: the invoice's `method`, the checkout's `payment_type`, the events), whether
 * the hosted checkout offers it, what its rail can carry (the total's ceiling, and why), and how the
 * query routes show its own fields on the invoice. Every other list of methods is derived from this
 * table; a method's fields are the invoice's property under its setting's name (`invoice.card`).
 */

/** A Pix charge's fields; `qrPng` is the QR code's PNG, drawn once at creation (older items lack it: drawn when read). */
export type PixFields = {
  txid: string;
  location: string;
  copy: string;
  qrPng?: Uint8Array;
  /** A BolePix's Pix half (a due-date charge, API Pix cobv): its provider, when another than the invoice's (the boleto's). */
  provider?: string;
};
export type BoletoFields = { barcode: string; digitable: string; customerId: number; instructions?: string };
export type CardFields = { brand: string; last4: string; installments: number; transactionId: string; transactionStatus: number; description: string };

/** Each method's own fields on its invoices, by account setting. */
export type MethodFields = { pix: PixFields; boleto: BoletoFields; card: CardFields };

/** The card brands the gateway accepts. */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'elo' | 'hipercard' | 'diners' | 'discover' | 'jcb';

/** The provider calls' requests and answers, one pair per method (`MethodCalls` below). */
export type Payer = { name?: string; email?: string; document?: string };

export type PixChargeRequest = { reference: string; txid: string; amountCents: number; dueDate: string; merchantName: string; payer: Payer };
export type PixCharge = { txid: string; location: string; copy: string };

export type BoletoRequest = {
  reference: string;
  invoiceId: number;
  amountCents: number;
  dueDate: string;
  merchantName: string;
  payer: Payer & { name: string; document: string };
  instructions?: string;
};
export type RegisteredBoleto = { barcode: string; digitable: string };

export type CardRequest = {
  /**
   * The provider's idempotency key: derived from (account, Idempotency-Key), so a retry after a lost
   * answer (a timeout) finds the first authorization instead of making a second one.
   */
  idempotencyKey: string;
  reference: string;
  amountCents: number;
  installments: number;
  description: string;
  card: { number: string; cvv: string; month: number; year: number; brand: CardBrand; holder: string };
};
export type CardAuthorization =
  | { outcome: 'approved'; transactionId: string; status: number; message: string }
  | { outcome: 'declined'; message: string }
  /** The idempotency key's authorization was voided since (we could not record it): authorize anew under another key. */
  | { outcome: 'voided'; transactionId: string };

/**
 * Each method's charge call to the payment provider (Medusa's `initiatePayment`): what the use case
 * sends and what the provider answers, by account setting. The provider port types its calls from this
 * map (`ChargeCalls` in shared/ports/payment-provider.ts), so a new method's call is written here and in the
 * adapters that serve it, never on the port.
 */
export type MethodCalls = {
  pix: { request: PixChargeRequest; answer: PixCharge };
  boleto: { request: BoletoRequest; answer: RegisteredBoleto };
  card: { request: CardRequest; answer: CardAuthorization };
};

/** What a method's view of its fields may use besides them: the invoice's reference and total, and the boleto page's signed link. */
export type MethodViewContext = { reference: string; totalCents: number; boletoUrl: () => string };

/**
 * The provider notification that says a payment arrived on a method's rail: its `type` on the wire
 * (`pix.paid`, `boleto.paid`) and what names the charge in it (the Pix `txid`, or the invoice's
 * `reference`). The simulated provider's notification schema, its parser and the CLI's
 * `provider <method>-paid` commands derive from it.
 */
export type PaidNotice = { type: `${string}.paid`; by: 'txid' | 'reference' };

/**
 * A method whose charge route the route table derives from its row (shared/http/route-table/charges.ts,
 * `methodChargeRoutes`): POST `path`, operation `Create<Method>Charge`, handler
 * `functions/charges/<setting>.ts`, its body the common charge fields plus `bodyFields`, its answer the
 * invoice's reference, total, due date, status and the method's view fields. The methods before this
 * (pix, boleto, card) keep the routes they were written with (their bodies and answers are interfaces).
 */
export type MethodRoute<BodyFields extends z.ZodRawShape = z.ZodRawShape> = {
  path: `/api/${string}/create`;
  summary: string;
  description: string;
  /** The body's fields beside the common charge fields (shared/domain/schemas/charge.ts). */
  bodyFields: BodyFields;
  /** An example of those fields (the OpenAPI document's example adds the common ones). */
  bodyExample: Record<string, unknown>;
};

type MethodRow<Fields, View extends z.ZodObject> = {
  /** The charge name: the invoice's `method`. */
  charge: string;
  /** Its name on the panel's pages and in the hosted checkout (pt-BR). */
  label: string;
  /** Offered by the hosted checkout. */
  onCheckout: boolean;
  /** The largest total its rail carries, in centavos (docs/decisions.md, "Ceilings of the totals"), and why. */
  ceilingCents: number;
  ceilingReason: string;
  /** The notification its provider sends when it is paid; none: confirmed when charged (the card). */
  paidNotice?: PaidNotice;
  /** Its fields on the invoice object of the query routes: their schema (the OpenAPI document's and the typed client's), and the view that shows them. */
  viewSchema: View;
  view: (fields: Fields, context: MethodViewContext) => z.input<View>;
  /** Its view fields as the OpenAPI document's examples show them (an invoice of each method). */
  example: z.input<View>;
  /** Its charge route, when the route table derives it from this row (MethodRoute). */
  route?: MethodRoute;
};

/** Any method's row (a test may add one to the registry's: `methodsOf`). */
export type AnyMethodRow = MethodRow<never, z.ZodObject>;

/** A method's row, its view checked against its view's schema. */
const methodRow =
  <Fields>() =>
  <const Charge extends string, const OnCheckout extends boolean, View extends z.ZodObject, BodyFields extends z.ZodRawShape = Record<never, never>>(
    row: Omit<MethodRow<Fields, View>, 'route'> & { charge: Charge; onCheckout: OnCheckout; route?: MethodRoute<BodyFields> },
  ) =>
    row;

/** The card transaction object of spec 2.3, as answers show it. */
export const cardTransactionSchema = z
  .object({ id: z.string(), amount: moneyString, status: z.number().int().describe('1: approved'), description: z.string(), method: z.literal('creditcard') })
  .meta({ id: 'CardTransaction' });

/** The card transaction object of spec 2.3. */
export function cardTransaction(card: Pick<CardFields, 'transactionId' | 'transactionStatus' | 'description'>, totalCents: number) {
  return {
    id: card.transactionId,
    amount: formatCents(totalCents),
    status: card.transactionStatus,
    description: card.description,
    method: 'creditcard' as const,
  };
}

export const METHOD_REGISTRY = {
  pix: methodRow<PixFields>()({
    charge: 'pix',
    label: 'Pix',
    onCheckout: true,
    ceilingCents: 999_999_999_999,
    ceilingReason: 'API Pix amounts carry at most 10 integer digits and 2 decimals',
    paidNotice: { type: 'pix.paid', by: 'txid' },
    // `qrcode` is drawn (or read back) apart, only where an answer shows it (shared/invoices/qr-code.ts).
    viewSchema: z.object({ txid: z.string(), copy: z.string(), qrcode: z.string().optional() }),
    view: (pix) => ({ txid: pix.txid, copy: pix.copy }),
    example: {
      txid: 'INV7KQ2MXaZZSMXFtU12SVrRyk7B9QM1',
      copy: '00020101021226910014br.gov.bcb.pix2569api.example.com/simulated-psp/v2/cob/1b623e5ab74c499ab56d61fbb216b0315204000053039865802BR5909Loja Demo6009SAO PAULO62070503***630498C3',
      qrcode: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAASwAAAEsCAYAAAB5fY51AAAAAklEQVR4AewaftIAAA6Z',
    },
  }),
  boleto: methodRow<BoletoFields>()({
    charge: 'boleto',
    label: 'Boleto',
    onCheckout: false,
    ceilingCents: 9_999_999_999,
    ceilingReason: "The FEBRABAN barcode's amount field holds 10 digits (8 integer, 2 decimal)",
    paidNotice: { type: 'boleto.paid', by: 'reference' },
    viewSchema: z.object({ customer: z.number().int(), boleto: z.string(), barcode: z.string(), digitable: z.string() }),
    view: (boleto, context) => ({ customer: boleto.customerId, boleto: context.boletoUrl(), barcode: boleto.barcode, digitable: boleto.digitable }),
    example: {
      customer: 115532481791238,
      boleto: 'https://api.example.com/boleto/INV-9EBNDH/LPlzd2-A5DOVzmpyZJexsphdKWhy1VYU',
      barcode: '99999164000000190000115532484548150000000000',
      digitable: '99990115553248454815400000000000916400000019000',
    },
  }),
  card: methodRow<CardFields>()({
    charge: 'creditcard',
    label: 'Cartão de crédito',
    onCheckout: true,
    // The 12-digit amount field of the networks' authorization messages (ISO 8583 field 4, n12, in centavos).
    ceilingCents: 999_999_999_999,
    ceilingReason: "The card networks' authorization amount field holds 12 digits in centavos (ISO 8583 field 4)",
    viewSchema: z.object({
      card: z.object({ brand: z.string(), last4: z.string(), installments: z.number().int() }),
      transaction: cardTransactionSchema.optional(),
    }),
    view: (card, context) => ({
      card: { brand: card.brand, last4: card.last4, installments: card.installments },
      // A card charge whose answer was lost is PENDING without a transaction until it is settled.
      ...(typeof card.transactionId === 'string' ? { transaction: cardTransaction(card, context.totalCents) } : {}),
    }),
    example: {
      card: { brand: 'visa', last4: '1111', installments: 1 },
      transaction: { id: 'sim_O4993TIYm4S6pnmmSxanJypc', amount: '50.00', status: 1, description: 'Caneca', method: 'creditcard' },
    },
  }),
} as const satisfies { [M in keyof MethodFields]: MethodRow<MethodFields[M], z.ZodObject> };

/** A rail a payment arrives on: the charge name of its method (`pix`, `boleto`, `creditcard`). */
export type PaymentRail = ChargeMethod;

/** The two rails a BolePix offers (shared/domain/bolepix.ts). */
export type BolePixRail = 'pix' | 'boleto';

/** An account setting: the name a merchant enables a method under (and its fields' name on the invoice). */
export type PaymentMethod = keyof typeof METHOD_REGISTRY;
/** A charge's method: the invoice's `method`. */
export type ChargeMethod = (typeof METHOD_REGISTRY)[PaymentMethod]['charge'];
/** The methods the hosted checkout offers. */
export type CheckoutMethod = { [M in PaymentMethod]: (typeof METHOD_REGISTRY)[M]['onCheckout'] extends true ? M : never }[PaymentMethod];

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type OptionalShape<S extends z.ZodObject> = { [K in keyof S['shape']]: z.ZodOptional<S['shape'][K]> };
/** Every method's view fields, each optional. */
export type MethodViewShape = UnionToIntersection<{ [M in PaymentMethod]: OptionalShape<(typeof METHOD_REGISTRY)[M]['viewSchema']> }[PaymentMethod]>;

/**
 * Everything the house derives from a registry's rows: every list of methods, their labels, paid
 * notices and rails, and the functions over them. The house's are `methodsOf(METHOD_REGISTRY)`, exported
 * below one by one; a test may derive them from the registry's rows plus a fake one (and, mocking this
 * module with them, see every derived fact of the house include it).
 */
export function methodsOf(rows: Readonly<Record<string, AnyMethodRow>>) {
  const row = (setting: string): AnyMethodRow => rows[setting] as AnyMethodRow;
  const settings: readonly string[] = Object.keys(rows);
  const charges: readonly string[] = settings.map((setting) => row(setting).charge);
  const checkoutSettings = settings.filter((setting) => row(setting).onCheckout);
  const settingOfChargeIn = (method: string): string => {
    const found = settings.find((setting) => row(setting).charge === method);
    if (!found) throw new Error(`No payment method charges as ${method}`);
    return found;
  };
  return {
    METHOD_REGISTRY: rows,
    /** Every account setting, in the registry's order (pix, boleto, card). */
    PAYMENT_METHODS: settings,
    /** The settings the hosted checkout offers, in the registry's order (pix, card). */
    CHECKOUT_METHODS: checkoutSettings,
    /** Every charge method (the invoice's `method`), in the registry's order: pix, boleto, creditcard. */
    CHARGE_METHODS: charges,
    /** The rails a payment can arrive on (an invoice's `paidRail`, a ledger payment's `method`): every charge method. */
    PAID_RAILS: charges,
    /** How a checkout can be paid (its `payment_type`): the charge methods of the checkout's methods, pix and creditcard. */
    CHECKOUT_PAYMENT_TYPES: checkoutSettings.map((setting) => row(setting).charge),
    /** Each setting's label (the panel's methods page), in the registry's order. */
    METHOD_LABELS: Object.fromEntries(settings.map((setting) => [setting, row(setting).label])) as Readonly<Record<string, string>>,
    /** Each charge method's label (the panel's invoices and overview, the checkout's receipt). */
    CHARGE_LABELS: Object.fromEntries(settings.map((setting) => [row(setting).charge, row(setting).label])) as Readonly<Record<string, string>>,
    /** The paid notices on the wire (`pix.paid`, `boleto.paid`), each with the setting it pays. */
    PAID_NOTICES: settings.flatMap((setting) => {
      const notice = row(setting).paidNotice;
      return notice ? [{ ...notice, method: setting }] : [];
    }),
    /** The account setting a charge's method needs. */
    settingOfCharge: settingOfChargeIn,
    /** A stored name, either a setting or a charge method, as its setting; anything else is undefined. */
    paymentMethodOf: (stored: unknown): string | undefined => settings.find((setting) => setting === stored || row(setting).charge === stored),
    /** The method's own fields of an invoice as the query routes show them (none: nothing). */
    methodFieldsView: (method: string, fields: unknown, context: MethodViewContext): Record<string, unknown> => {
      if (fields === undefined) return {};
      const view = row(method).view as (fields: unknown, context: MethodViewContext) => Record<string, unknown>;
      return view(fields, context);
    },
    /** Every method's view fields, each optional (an invoice shows its own method's only), in the registry's order: the invoice object's schema ends with them. */
    methodViewShape: (): Record<string, z.ZodType> =>
      Object.assign({}, ...settings.map((setting): Record<string, z.ZodType> => row(setting).viewSchema.partial().shape)) as Record<string, z.ZodType>,
    /** Parses a comma-separated list of payment methods ("pix,card"); unknown names are an error. */
    parseMethods: (list: string): string[] => {
      const names = list
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name.length > 0);
      const unknown = names.filter((name) => !settings.includes(name));
      if (unknown.length > 0) throw new Error(`Unknown payment method(s): ${unknown.join(', ')}; use ${settings.join(', ')}`);
      return settings.filter((method) => names.includes(method));
    },
  };
}

const derived = methodsOf(METHOD_REGISTRY as unknown as Readonly<Record<string, AnyMethodRow>>);

/** Every account setting, in the registry's order (pix, boleto, card). */
export const PAYMENT_METHODS = derived.PAYMENT_METHODS as readonly PaymentMethod[];
/** The settings the hosted checkout offers, in the registry's order (pix, card). */
export const CHECKOUT_METHODS = derived.CHECKOUT_METHODS as readonly CheckoutMethod[];
/** Every charge method (the invoice's `method`), in the registry's order: pix, boleto, creditcard. */
export const CHARGE_METHODS = derived.CHARGE_METHODS as readonly ChargeMethod[];
/** The rails a payment can arrive on (an invoice's `paidRail`): every charge method. */
export const PAID_RAILS = derived.PAID_RAILS as readonly PaymentRail[];

/** How a checkout can be paid (its `payment_type`): the charge methods of the checkout's methods, pix and creditcard. */
export type CheckoutPaymentType = (typeof METHOD_REGISTRY)[CheckoutMethod]['charge'];
export const CHECKOUT_PAYMENT_TYPES = derived.CHECKOUT_PAYMENT_TYPES as readonly CheckoutPaymentType[];

/** Each setting's label (the panel's methods page). */
export const METHOD_LABELS = derived.METHOD_LABELS as Readonly<Record<PaymentMethod, string>>;
/** Each charge method's label (the panel's invoices and overview, the checkout's receipt). */
export const CHARGE_LABELS = derived.CHARGE_LABELS as Readonly<Record<ChargeMethod, string>>;
/** The paid notices on the wire (`pix.paid` by txid, `boleto.paid` by reference), each with the setting it pays. */
export const PAID_NOTICES = derived.PAID_NOTICES as readonly (PaidNotice & { method: PaymentMethod })[];

/** The account setting a charge's method needs. */
export const settingOfCharge = derived.settingOfCharge as (method: ChargeMethod) => PaymentMethod;

/** A stored name, either a setting or a charge method, as its setting; anything else is undefined. */
export const paymentMethodOf = derived.paymentMethodOf as (stored: unknown) => PaymentMethod | undefined;

/** The method's own fields of an invoice as the query routes show them (none: nothing). */
export const methodFieldsView = derived.methodFieldsView as <M extends PaymentMethod>(
  method: M,
  fields: MethodFields[M] | undefined,
  context: MethodViewContext,
) => Record<string, unknown>;

/** Every method's view fields, each optional (an invoice shows its own method's only), in the registry's order: the invoice object's schema ends with them. */
export const methodViewShape = derived.methodViewShape as () => MethodViewShape;

/** Parses a comma-separated list of payment methods ("pix,card"); unknown names are an error. */
export const parseMethods = derived.parseMethods as (list: string) => PaymentMethod[];

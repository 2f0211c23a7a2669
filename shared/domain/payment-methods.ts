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

type MethodRow<Fields, View extends z.ZodObject> = {
  /** The charge name: the invoice's `method`. */
  charge: string;
  /** Offered by the hosted checkout. */
  onCheckout: boolean;
  /** The largest total its rail carries, in centavos (docs/decisions.md, "Ceilings of the totals"), and why. */
  ceilingCents: number;
  ceilingReason: string;
  /** Its fields on the invoice object of the query routes: their schema (the OpenAPI document's and the typed client's), and the view that shows them. */
  viewSchema: View;
  view: (fields: Fields, context: MethodViewContext) => z.input<View>;
};

/** A method's row, its view checked against its view's schema. */
const methodRow =
  <Fields>() =>
  <const Charge extends string, const OnCheckout extends boolean, View extends z.ZodObject>(
    row: MethodRow<Fields, View> & { charge: Charge; onCheckout: OnCheckout },
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
    onCheckout: true,
    ceilingCents: 999_999_999_999,
    ceilingReason: 'API Pix amounts carry at most 10 integer digits and 2 decimals',
    // `qrcode` is drawn (or read back) apart, only where an answer shows it (shared/invoices/qr-code.ts).
    viewSchema: z.object({ txid: z.string(), copy: z.string(), qrcode: z.string().optional() }),
    view: (pix) => ({ txid: pix.txid, copy: pix.copy }),
  }),
  boleto: methodRow<BoletoFields>()({
    charge: 'boleto',
    onCheckout: false,
    ceilingCents: 9_999_999_999,
    ceilingReason: "The FEBRABAN barcode's amount field holds 10 digits (8 integer, 2 decimal)",
    viewSchema: z.object({ customer: z.number().int(), boleto: z.string(), barcode: z.string(), digitable: z.string() }),
    view: (boleto, context) => ({ customer: boleto.customerId, boleto: context.boletoUrl(), barcode: boleto.barcode, digitable: boleto.digitable }),
  }),
  card: methodRow<CardFields>()({
    charge: 'creditcard',
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

/** Every account setting, in the registry's order (pix, boleto, card). */
export const PAYMENT_METHODS = Object.keys(METHOD_REGISTRY) as readonly PaymentMethod[];

/** The settings the hosted checkout offers, in the registry's order (pix, card). */
export const CHECKOUT_METHODS = PAYMENT_METHODS.filter((method): method is CheckoutMethod => METHOD_REGISTRY[method].onCheckout);

/** Every charge method (the invoice's `method`), in the registry's order: pix, boleto, creditcard. */
export const CHARGE_METHODS: readonly ChargeMethod[] = PAYMENT_METHODS.map((method) => METHOD_REGISTRY[method].charge);

/** How a checkout can be paid (its `payment_type`): the charge methods of the checkout's methods, pix and creditcard. */
export type CheckoutPaymentType = (typeof METHOD_REGISTRY)[CheckoutMethod]['charge'];
export const CHECKOUT_PAYMENT_TYPES: readonly CheckoutPaymentType[] = CHECKOUT_METHODS.map((method) => METHOD_REGISTRY[method].charge);

/** The account setting a charge's method needs. */
export function settingOfCharge(method: ChargeMethod): PaymentMethod {
  const found = PAYMENT_METHODS.find((setting) => METHOD_REGISTRY[setting].charge === method);
  if (!found) throw new Error(`No payment method charges as ${method}`);
  return found;
}

/** A stored name, either a setting or a charge method, as its setting; anything else is undefined. */
export function paymentMethodOf(stored: unknown): PaymentMethod | undefined {
  return PAYMENT_METHODS.find((setting) => setting === stored || METHOD_REGISTRY[setting].charge === stored);
}

/** The method's own fields of an invoice as the query routes show them (none: nothing). */
export function methodFieldsView<M extends PaymentMethod>(method: M, fields: MethodFields[M] | undefined, context: MethodViewContext): Record<string, unknown> {
  if (fields === undefined) return {};
  const view = METHOD_REGISTRY[method].view as (fields: MethodFields[M], context: MethodViewContext) => Record<string, unknown>;
  return view(fields, context);
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type OptionalShape<S extends z.ZodObject> = { [K in keyof S['shape']]: z.ZodOptional<S['shape'][K]> };
/** Every method's view fields, each optional. */
export type MethodViewShape = UnionToIntersection<{ [M in PaymentMethod]: OptionalShape<(typeof METHOD_REGISTRY)[M]['viewSchema']> }[PaymentMethod]>;

/** Every method's view fields, each optional (an invoice shows its own method's only), in the registry's order: the invoice object's schema ends with them. */
export function methodViewShape(): MethodViewShape {
  const shapes = PAYMENT_METHODS.map((method): Record<string, z.ZodType> => METHOD_REGISTRY[method].viewSchema.partial().shape);
  return Object.assign({}, ...shapes) as MethodViewShape;
}

/** Parses a comma-separated list of payment methods ("pix,card"); unknown names are an error. */
export function parseMethods(list: string): PaymentMethod[] {
  const names = list
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name.length > 0);
  const unknown = names.filter((name) => !(PAYMENT_METHODS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`Unknown payment method(s): ${unknown.join(', ')}; use ${PAYMENT_METHODS.join(', ')}`);
  return PAYMENT_METHODS.filter((method) => names.includes(method));
}

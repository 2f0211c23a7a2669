/**
 * The payment methods, named once (issue 32): each method's account setting (`card`, what
 * `account create --methods` and the account item hold) and its charge name (`creditcard`, the
 * invoice's `method`, the checkout's `payment_type`, the events), whether the hosted checkout offers
 * it. Every other list of methods is derived from this table.
 */
export const METHOD_REGISTRY = {
  pix: { charge: 'pix', onCheckout: true },
  boleto: { charge: 'boleto', onCheckout: false },
  card: { charge: 'creditcard', onCheckout: true },
} as const;

/** An account setting: the name a merchant enables a method under. */
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

export const PAYMENT_METHODS = ['pix', 'boleto', 'card'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

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

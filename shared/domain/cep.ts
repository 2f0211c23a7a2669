/** An address found for a CEP (postal code), ready to prefill a customer. */
export type CepAddress = { zipcode: string; state: string; city: string; district: string; street: string };

/** How long a found address is kept in the cache: CEPs change rarely. */
export const CEP_CACHE_SECONDS = 30 * 24 * 60 * 60;

/** A CEP as 8 digits ("01310-100" → "01310100"), or null when it is not one. */
export function normalizeCep(text: string): string | null {
  const match = /^(\d{5})-?(\d{3})$/.exec(text.trim());
  return match ? `${match[1]}${match[2]}` : null;
}

/** An address found for a CEP (postal code), ready to prefill a customer. */
export type CepAddress = { zipcode: string; state: string; city: string; district: string; street: string };

/** How long a found address is kept in the cache: CEPs change rarely. */
export const CEP_CACHE_SECONDS = 30 * 24 * 60 * 60;

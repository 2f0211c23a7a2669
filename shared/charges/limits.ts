/** The charge methods a rail limit applies to (the invoice's `method`). */
export type RailMethod = 'pix' | 'boleto' | 'creditcard';

/**
 * What each rail can carry: the boleto amount field holds 10 digits (99,999,999.99); API Pix amounts
 * have at most 10 integer digits; card totals follow the boleto limit (docs/decisions.md). A value
 * module with no imports: the route table, the schemas and the checkout form read it.
 */
export const RAIL_LIMIT_CENTS: Readonly<Record<RailMethod, number>> = { pix: 999_999_999_999, boleto: 9_999_999_999, creditcard: 9_999_999_999 };

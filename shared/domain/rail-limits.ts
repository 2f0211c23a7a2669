import type { ChargeMethod } from './payment-methods';

/** The charge methods a rail limit applies to (the invoice's `method`, the registry's charge names). */
export type RailMethod = ChargeMethod;

/**
 * What each rail can carry (docs/decisions.md, "Ceilings of the totals"): the boleto amount field
 * holds 10 digits (99,999,999.99); API Pix amounts have at most 10 integer digits; a card
 * authorization's amount is the 12-digit amount field of the networks' messages (ISO 8583 field 4,
 * n12, in centavos: 9,999,999,999.99). A value module: the route table, the schemas,
 * the OpenAPI document (`x-total-ceiling`) and the checkout form read it.
 */
export const RAIL_LIMIT_CENTS: Readonly<Record<RailMethod, number>> = { pix: 999_999_999_999, boleto: 9_999_999_999, creditcard: 999_999_999_999 };

/** Why each rail's ceiling is what it is (the OpenAPI document's `x-total-ceiling` reason). */
export const RAIL_LIMIT_REASONS: Readonly<Record<RailMethod, string>> = {
  pix: 'API Pix amounts carry at most 10 integer digits and 2 decimals',
  boleto: "The FEBRABAN barcode's amount field holds 10 digits (8 integer, 2 decimal)",
  creditcard: "The card networks' authorization amount field holds 12 digits in centavos (ISO 8583 field 4)",
};

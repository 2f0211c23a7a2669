import { type ChargeMethod, METHOD_REGISTRY, PAYMENT_METHODS } from './payment-methods';

/** The charge methods a rail limit applies to (the invoice's `method`, the registry's charge names). */
export type RailMethod = ChargeMethod;

/**
 * What each rail can carry (docs/decisions.md, "Ceilings of the totals"), by charge name, from the
 * registry's rows (./payment-methods.ts). A value module: the route table, the schemas, the OpenAPI
 * document (`x-total-ceiling`) and the checkout form read it.
 */
export const RAIL_LIMIT_CENTS = Object.fromEntries(PAYMENT_METHODS.map((m) => [METHOD_REGISTRY[m].charge, METHOD_REGISTRY[m].ceilingCents])) as Readonly<
  Record<RailMethod, number>
>;

/** Why each rail's ceiling is what it is (the OpenAPI document's `x-total-ceiling` reason). */
export const RAIL_LIMIT_REASONS = Object.fromEntries(PAYMENT_METHODS.map((m) => [METHOD_REGISTRY[m].charge, METHOD_REGISTRY[m].ceilingReason])) as Readonly<
  Record<RailMethod, string>
>;

/** A payment of a Pix charge as its PSP holds it (API Pix `pix[]`), refunds included. */
export type PixPayment = {
  endToEndId: string;
  amountCents: number;
  paidAt: Date;
  /** Returned to the payer (devolucoes whose status is DEVOLVIDO), in cents. */
  refundedCents: number;
  /** When the last returned refund settled, if any. */
  refundedAt?: Date;
};

/** A Pix charge as its PSP holds it now (a lookup): ACTIVE (payable), COMPLETED (paid), REMOVED (expired or withdrawn). */
export type PixChargeState = { txid: string; status: 'ACTIVE' | 'COMPLETED' | 'REMOVED'; amountCents: number; payments: PixPayment[] };

/**
 * What a Pix charge's state at its PSP means for its invoice (pure): the moves to apply, in order, and
 * the anomalies to alarm on. A payment is credited only when its amount is exactly the invoice total;
 * a payment of another amount is an anomaly (logged, alarmed, never credited: the merchant settles
 * it with the payer). A payment returned in full (devolucoes DEVOLVIDO) refunds the invoice; a
 * partial return is an anomaly (the invoice model has no partial refunds). A charge the PSP removed
 * unpaid (expired) is canceled.
 */
export type PixMove =
  | { kind: 'paid'; occurredAt: Date; endToEndId: string; amountCents: number }
  | { kind: 'refunded'; occurredAt: Date; endToEndId: string }
  | { kind: 'canceled'; occurredAt: Date };

export type PixAnomaly =
  | { kind: 'amount_mismatch'; endToEndId: string; paidCents: number; expectedCents: number }
  | { kind: 'partial_refund'; endToEndId: string; refundedCents: number; paidCents: number }
  | { kind: 'extra_payment'; endToEndId: string; paidCents: number };

/**
 * `expected`: the invoice total, or for a charge with late-payment rules (a BolePix's due-date Pix
 * half) the amount due on a payment's date (undefined: that day is past the window, nothing is due).
 */
export function pixOutcomes(
  state: PixChargeState,
  expected: number | ((paidAt: Date) => number | undefined),
  now: Date,
): { moves: PixMove[]; anomalies: PixAnomaly[] } {
  const moves: PixMove[] = [];
  const anomalies: PixAnomaly[] = [];
  const expectedOf = (p: PixPayment) => (typeof expected === 'number' ? expected : expected(p.paidAt));
  const exact = state.payments.filter((p) => p.amountCents === expectedOf(p));
  for (const p of state.payments) {
    const expectedCents = expectedOf(p);
    if (p.amountCents !== expectedCents)
      anomalies.push({ kind: 'amount_mismatch', endToEndId: p.endToEndId, paidCents: p.amountCents, expectedCents: expectedCents ?? 0 });
  }
  const [payment, ...extra] = exact;
  for (const p of extra) anomalies.push({ kind: 'extra_payment', endToEndId: p.endToEndId, paidCents: p.amountCents });
  if (payment) {
    moves.push({ kind: 'paid', occurredAt: payment.paidAt, endToEndId: payment.endToEndId, amountCents: payment.amountCents });
    if (payment.refundedCents >= payment.amountCents) {
      moves.push({ kind: 'refunded', occurredAt: payment.refundedAt ?? now, endToEndId: payment.endToEndId });
    } else if (payment.refundedCents > 0) {
      anomalies.push({ kind: 'partial_refund', endToEndId: payment.endToEndId, refundedCents: payment.refundedCents, paidCents: payment.amountCents });
    }
  } else if (state.status === 'REMOVED' && state.payments.length === 0) {
    moves.push({ kind: 'canceled', occurredAt: now });
  }
  return { moves, anomalies };
}

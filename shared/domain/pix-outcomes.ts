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
  { kind: 'paid'; occurredAt: Date; endToEndId: string } | { kind: 'refunded'; occurredAt: Date; endToEndId: string } | { kind: 'canceled'; occurredAt: Date };

export type PixAnomaly =
  | { kind: 'amount_mismatch'; endToEndId: string; paidCents: number; expectedCents: number }
  | { kind: 'partial_refund'; endToEndId: string; refundedCents: number; paidCents: number }
  | { kind: 'extra_payment'; endToEndId: string; paidCents: number };

export function pixOutcomes(state: PixChargeState, totalCents: number, now: Date): { moves: PixMove[]; anomalies: PixAnomaly[] } {
  const moves: PixMove[] = [];
  const anomalies: PixAnomaly[] = [];
  const exact = state.payments.filter((p) => p.amountCents === totalCents);
  for (const p of state.payments) {
    if (p.amountCents !== totalCents)
      anomalies.push({ kind: 'amount_mismatch', endToEndId: p.endToEndId, paidCents: p.amountCents, expectedCents: totalCents });
  }
  const [payment, ...extra] = exact;
  for (const p of extra) anomalies.push({ kind: 'extra_payment', endToEndId: p.endToEndId, paidCents: p.amountCents });
  if (payment) {
    moves.push({ kind: 'paid', occurredAt: payment.paidAt, endToEndId: payment.endToEndId });
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

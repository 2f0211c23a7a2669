import { formatCents } from './money';
import { FIRST_VERSION, nextVersion, versionFields } from './object-version';
import type { WithdrawStatus } from './withdrawal-transitions';

/** The Pix key types (DICT). */
export const KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

/** `WD-` and twelve characters: a withdraw's reference, also its txid in GET /api/pixout/withdraw/{txid}. */
export const WITHDRAW_REFERENCE_SHAPE = /^WD-[A-Z0-9]{12}$/;

/** A Pix withdrawal as the rules see it (its Pix key and document in clear: only the adapter seals them). */
export type Withdrawal = {
  reference: string;
  accountId: string;
  status: WithdrawStatus;
  amountCents: number;
  feeCents: number;
  /** amount + fee held in the reserved balance (a pending transfer); absent on withdraws reserved before holds, by a plain debit. */
  heldCents?: number;
  pixkey: string;
  keytype: KeyType;
  description?: string;
  client?: string;
  document?: string;
  email?: string;
  /** The registry name of the bank that pays it; the payout worker resolves it by this name. */
  bank?: string;
  createdAt: string;
  bankRequestedAt?: string;
  paidAt?: string;
  canceledAt?: string;
  endToEndId?: string;
  /** 1 at creation, +1 at each state change (shared/domain/object-version.ts); absent on withdraws stored before: 1. */
  version?: number;
};

/** The Withdraw object (spec 2.5), with the deprecated names carrying the same values (spec 9). */
export function withdrawView(withdrawal: Withdrawal) {
  const amount = formatCents(withdrawal.amountCents);
  const endToEndId = withdrawal.endToEndId ?? null;
  return {
    reference: withdrawal.reference,
    amount,
    fee: formatCents(withdrawal.feeCents),
    netAmount: amount,
    endToEndId,
    status: withdrawal.status,
    pixkey: withdrawal.pixkey,
    keytype: withdrawal.keytype,
    description: withdrawal.description ?? null,
    created_at: withdrawal.createdAt,
    paid_at: withdrawal.paidAt ?? null,
    canceled_at: withdrawal.canceledAt ?? null,
    version: withdrawal.version ?? FIRST_VERSION,
    loquidAmount: amount,
    entoend: endToEndId,
  };
}

/** The `withdraw` object of pixout events (spec 6.1), with the version the move made and the status it left (issue 29). */
export function withdrawEventData(withdrawal: Withdrawal, status: WithdrawStatus, previousStatus: WithdrawStatus): Record<string, unknown> {
  return {
    withdraw: {
      reference: withdrawal.reference,
      amount: formatCents(withdrawal.amountCents),
      fee: formatCents(withdrawal.feeCents),
      status,
      ...versionFields(nextVersion(withdrawal.version), previousStatus),
    },
  };
}

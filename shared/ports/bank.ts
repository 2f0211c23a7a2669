import type { KeyType } from '../domain/withdrawal';

/** The bank port: pays a Pix withdrawal. Its outcome arrives later as a notification (paid or refused). */
export type PayoutRequest = { reference: string; amountCents: number; pixkey: string; keytype: KeyType; description?: string };

/** The bank could not take the request now (down, timeout): nothing was paid; ask again later. */
export class BankUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BankUnavailableError';
  }
}

export interface BankPort {
  readonly name: string;
  /** Idempotent by `reference` (the bank's own idempotency key): asking twice never pays twice. */
  requestPayout(request: PayoutRequest): Promise<void>;
}

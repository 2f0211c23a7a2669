import type { PaymentMethod } from './payment-methods';

/** A merchant account's settings, as the API's write routes read them with the call's admission. */
export type Account = {
  accountId: string;
  /** The display name, for BR Codes and boleto pages. */
  name?: string;
  /** The payment methods the operator enabled (spec 1). */
  methods: PaymentMethod[];
  /** The account's own withdrawal fee, when it has one (else the default: withdrawal-fee.ts). */
  withdrawFeeCents?: number;
  webhookUrl?: string;
  /** Whether a webhook signing secret exists (the secret itself never leaves the adapter). */
  webhookSecretConfigured: boolean;
  /** Disabled by the operator: refuses every call and every checkout. */
  disabled: boolean;
};

/** An account as the hosted checkout's entry form reads it: its settings, and its checkout rules. */
export type CheckoutAccount = Account & {
  /** The hosted checkout's form signatures: required or not, and the secret's version (0: none issued). */
  checkoutSigning: { required: boolean; version: number };
  /** The origins the checkout's callback_url may have (none listed: any). */
  callbackOrigins: string[];
};

/** Who is calling: the account of a valid token, with the account's settings when the route writes. */
export type Caller = { accountId: string; keyVersion: number; account?: Account };

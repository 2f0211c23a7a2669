import type { PixChargeState } from '../domain/pix-outcomes';
import type { ReceivedPixPage, StatementWindow } from '../domain/pix-statement';
import type { LatePaymentRules } from '../domain/late-payment';
import type { MethodCalls, PaymentMethod, Payer, PixCharge } from '../domain/payment-methods';

/**
 * The payment provider port (Medusa-style: one abstract interface, one adapter per provider).
 * The simulated provider serves local runs and tests; real PSP adapters plug in behind it, each
 * registered by name in shared/wiring/provider-registry.ts (the only place adapters are resolved). The time
 * limit its calls run under is the use cases' (withProviderTimeout, shared/app/time-limits.ts).
 */
export type {
  Payer,
  PixChargeRequest,
  PixCharge,
  BoletoRequest,
  RegisteredBoleto,
  CardRequest,
  CardAuthorization,
  MethodCalls,
} from '../domain/payment-methods';

export type CardAuthorizationStatus =
  | { outcome: 'approved'; transactionId: string; status: number }
  | { outcome: 'declined' }
  /** The provider never received (or did not finish) an authorization under that key: nothing was charged. */
  | { outcome: 'not_found' };

/** A provider notification after its signature was checked. */
export type ProviderNotification = {
  id: string;
  /** Charges: paid, canceled, refunded. Pix withdrawals: payout_paid (concluded), payout_refused. */
  kind: 'paid' | 'canceled' | 'refunded' | 'payout_paid' | 'payout_refused';
  target: { txid: string } | { reference: string };
  occurredAt: Date;
  /** The Pix end-to-end id of a concluded withdrawal. */
  endToEndId?: string;
  /** A payment's amount, in cents, when the provider says it (else the amount due on its date). */
  amountCents?: number;
};

/** The provider failed (down, timeout, unexpected answer): nothing was charged; the client may retry. */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderError';
  }
}

/**
 * The provider did not answer in time: unlike an error it answered, the request may still be in flight
 * and take effect later (a card may be authorized after we gave up).
 */
export class ProviderTimeoutError extends ProviderError {
  constructor(timeoutMs: number) {
    super(`The provider did not answer within ${timeoutMs} ms`);
    this.name = 'ProviderTimeoutError';
  }
}

/** The notification is not authentic (invalid_signature) or not understood (invalid_notification). */
export class NotificationRejected extends Error {
  constructor(
    readonly reason: 'invalid_signature' | 'invalid_notification',
    message: string,
    /** Why a signature was refused (malformed, stale, mismatch…): for the log only, never the answer. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'NotificationRejected';
  }
}

/**
 * The one answer to every refused signature (issue 31): whether the header was malformed, stale or
 * did not match is logged, not told, so a forger learns nothing from the answer.
 */
export const INVALID_SIGNATURE_MESSAGE = 'Invalid notification signature';

export type { PixChargeState, PixPayment } from '../domain/pix-outcomes';
export type { ReceivedPix, ReceivedPixPage, StatementWindow } from '../domain/pix-statement';

/** The PSP refused the request for its content (API Pix 400/422 and alike): nothing was created; the merchant must change it. */
export class ProviderRejectedError extends Error {
  constructor(
    readonly status: 400 | 422,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderRejectedError';
  }
}

/** One method's charge call: the request the use case sends, the provider's answer. */
export type ChargeCall<M extends PaymentMethod> = (request: MethodCalls[M]['request']) => Promise<MethodCalls[M]['answer']>;

/** Every method's charge call, by account setting (the method's row types it: shared/domain/payment-methods.ts). */
export type ChargeCalls = { readonly [M in PaymentMethod]: ChargeCall<M> };

/**
 * The charge calls a provider serves: its `charges` map DECLARES the methods it serves (a method's call
 * present, that method served). A provider need not serve every method of the registry: choosing it
 * for a method it does not serve fails clearly (`chargeCallOf`: MethodNotServedError), and a new
 * method's row asks nothing of the providers that do not serve it.
 */
export type ServedCharges = { readonly [M in PaymentMethod]?: ChargeCall<M> };

/** A provider serving the methods M: their calls are there. */
export type ServingProvider<M extends PaymentMethod> = PixProvider & { readonly charges: Pick<ChargeCalls, M> };

/** The methods a provider serves, in the registry's order. */
export function servedMethods(provider: Pick<PixProvider, 'charges'>, methods: readonly PaymentMethod[]): PaymentMethod[] {
  return methods.filter((method) => serves(provider, method));
}

/** Whether a provider serves a method (its charge call is there). */
export function serves<M extends PaymentMethod>(provider: Pick<PixProvider, 'charges'>, method: M): provider is Pick<ServingProvider<M>, 'charges'> {
  return typeof provider.charges[method] === 'function';
}

/** A provider was chosen for a method it does not serve (a configuration error): nothing was charged. */
export class MethodNotServedError extends Error {
  constructor(
    readonly provider: string,
    readonly method: PaymentMethod,
  ) {
    super(`The payment provider ${provider} does not serve ${method} charges`);
    this.name = 'MethodNotServedError';
  }
}

/** The provider's call for a method, or MethodNotServedError when it does not serve it. */
export function chargeCallOf<M extends PaymentMethod>(provider: Pick<PixProvider, 'name' | 'charges'>, method: M): ChargeCall<M> {
  const call = provider.charges[method] as ChargeCall<M> | undefined;
  if (typeof call !== 'function') throw new MethodNotServedError(provider.name, method);
  return call;
}

/**
 * What every provider does: Pix charges. A provider that only serves Pix (a real PSP behind the API Pix
 * standard) implements this much; the registry gives the other methods' charges to a PaymentProvider.
 */
export interface PixProvider {
  /** The name the provider registry resolves it by, recorded on each invoice it creates (`provider`). */
  readonly name: string;
  /**
   * The charge calls it serves (Medusa's `initiatePayment`, one per method). `pix` registers a Pix
   * charge. Idempotent by `txid`: a second call with a txid already registered (for the same amount)
   * answers the first registration and registers nothing new, so a retry after a lost answer never
   * leaves two charges. Callers still call once per invoice: the reference and numeric id are checked
   * unused BEFORE this call, and a clash at the commit after it is never retried with new ids in the
   * same request. A refusal of the request's content is a ProviderRejectedError; an outage or an
   * unexpected answer a ProviderError.
   */
  readonly charges: ServedCharges & Pick<ChargeCalls, 'pix'>;
  /**
   * The charge as the PSP holds it now (undefined: the PSP does not know the txid). Providers that push
   * standard API Pix callbacks implement it: a callback is only a hint, each payment is credited from
   * this lookup over the provider's authenticated channel (and the sweep and `provider reconcile` use it).
   */
  lookupPixCharge?(txid: string): Promise<PixChargeState | undefined>;
  /**
   * One page (from 0) of the Pix the PSP received in a window (API Pix GET /pix), whatever became of their
   * callbacks: the Pix sweep and `provider reconcile --from --to` check each has its ledger entry (issue 43).
   */
  receivedPix?(window: StatementWindow, page: number): Promise<ReceivedPixPage>;
  /**
   * Withdraws an unpaid immediate Pix charge (API Pix PATCH /cob/{txid}, status
   * REMOVIDA_PELO_USUARIO_RECEBEDOR), so it can no longer be paid (issue 46: a merchant's cancellation).
   * Idempotent: a charge already removed answers `removed`; a paid one `paid`; one the PSP does not know `unknown`.
   */
  removePixCharge?(txid: string): Promise<PixDueRemoval>;
  /** Due-date Pix charges (BolePix's Pix half); a provider without them leaves boletos plain. */
  readonly dueCharges?: PixDueCharges;
  /** Authenticates (with the provider's credential) and parses one signed notification (the simulated provider's route). */
  parseNotification?(rawBody: string, headers: Record<string, string | undefined>, credential: string, now: Date): ProviderNotification;
}

/**
 * The Pix half of a BolePix (issue 28): a due-date Pix charge (API Pix `cobv`) for the same total and
 * due date as its boleto, the payer from the boleto's customer (a document and a name are required by
 * the standard), with the same late-payment rules (fine once, interest a month pro rata per calendar
 * day, payable `daysAfterDue` days after the due date).
 */
export type PixDueChargeRequest = {
  reference: string;
  txid: string;
  amountCents: number;
  /** Brazil's calendar date, YYYY-MM-DD. */
  dueDate: string;
  merchantName: string;
  payer: Payer & { name: string; document: string };
  late: LatePaymentRules;
};

/** What withdrawing a Pix charge (immediate or due-date) found: withdrawn now or before, paid already (cannot be withdrawn), or unknown to the PSP. */
export type PixDueRemoval = 'removed' | 'paid' | 'unknown';

/** A provider's due-date Pix charges (API Pix /cobv). */
export type PixDueCharges = {
  /** PUT /cobv/{txid}: idempotent by txid, as the immediate charge is (a retry meets the first registration). */
  create(request: PixDueChargeRequest): Promise<PixCharge>;
  /**
   * Withdraws an unpaid charge (API Pix PATCH /cobv/{txid}, status REMOVIDA_PELO_USUARIO_RECEBEDOR), so
   * it can no longer be paid. Idempotent: a charge already removed answers `removed`; a paid one `paid`.
   */
  remove(txid: string): Promise<PixDueRemoval>;
  /** GET /cobv/{txid}: the charge as the PSP holds it (undefined: unknown). Providers whose payments are read back implement it. */
  lookup?(txid: string): Promise<PixChargeState | undefined>;
};

/** What writing a boleto off found: written off now or before, paid already, or unknown to its provider. */
export type BoletoWriteOff = 'written_off' | 'paid' | 'unknown';

/** A Pix provider that reads its charges back (API Pix): the callbacks, the sweep and `provider reconcile` need one. */
export type LookingUpPixProvider = PixProvider & Required<Pick<PixProvider, 'lookupPixCharge'>>;

export function looksUpCharges(provider: PixProvider): provider is LookingUpPixProvider {
  return typeof provider.lookupPixCharge === 'function';
}

/** A Pix provider that lists the Pix it received (API Pix GET /pix): the Pix sweep checks its statement against the ledger. */
export type StatementProvider = PixProvider & Required<Pick<PixProvider, 'receivedPix'>>;

export function listsReceivedPix(provider: PixProvider): provider is StatementProvider {
  return typeof provider.receivedPix === 'function';
}

/**
 * The card and boleto provider (the configured one's methods are the ones this port has follow-up
 * calls for). Beside the Pix charge: `boleto` registers a boleto, idempotent by `reference` as the Pix
 * charge is (the first boleto is answered again); `card` authorizes a card, idempotent by its request's
 * `idempotencyKey`. A card's follow-up calls are the card's own. Any other method's call is there only
 * when it serves that method (ServedCharges).
 */
export interface PaymentProvider extends PixProvider {
  readonly charges: ServedCharges & Pick<ChargeCalls, 'pix' | 'boleto' | 'card'>;
  /**
   * What became of the authorization made under an idempotency key whose answer was lost: approved,
   * declined, or never received (nothing charged). Asked by the checkout upkeep for UNKNOWN checkouts.
   */
  cardAuthorizationStatus(idempotencyKey: string): Promise<CardAuthorizationStatus>;
  /** Cancels an approved authorization that could not be recorded (nothing is captured). */
  voidCard(request: { reference: string; transactionId: string }): Promise<void>;
  /**
   * Writes an unpaid boleto off (baixa: banks refuse it from then on), idempotent by reference: one
   * written off before answers `written_off`, one paid already `paid`.
   */
  writeOffBoleto(reference: string): Promise<BoletoWriteOff>;
}

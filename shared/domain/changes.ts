import type { AuditEntry } from './panel/audit';
import type { CardAttempt } from './card-attempt';
import type { CepAddress } from './cep';
import type { Checkout, CheckoutPayment, NewCheckout, UnknownCardAttempt } from './checkout';
import type { OrderStatus } from './checkout-transitions';
import type { Customer } from './customer';
import type { Invoice, NewInvoice } from './invoice';
import type { BolePixRail, PaymentRail } from './bolepix';
import type { InvoiceMove } from './invoice-transitions';
import type { LedgerTransfer } from './ledger';
import type { Withdrawal } from './withdrawal';
import type { WebhookEventType } from './webhooks';
import type { WithdrawStatus } from './withdrawal-transitions';

/**
 * The change vocabulary (issue 32): what a use case says happened, as typed facts, never as storage
 * writes. The DynamoDB adapter compiles a use case's changes into ONE transaction with the idempotency
 * record (shared/adapters/dynamo/changes.ts); a rule test asserts on these values.
 */

/** A webhook event to send (spec 6.2), recorded in the same transaction as the change it reports. */
export type OutboxEvent = { id: string; type: string; created: number; api_version: string; data: Record<string, unknown> };

/** A new withdrawal, PENDING; its reference must be new (a clash: draw again). */
export type WithdrawalCreated = { kind: 'withdrawal.created'; withdrawal: Withdrawal };

/** A withdrawal moved by the bank's answer, only if it still has status `from` (else a duplicate made the move first). */
export type WithdrawalMoved = {
  kind: 'withdrawal.moved';
  reference: string;
  from: WithdrawStatus;
  to: WithdrawStatus;
  /** The version the move makes (the one read + 1): stored with the status. */
  version: number;
  at: string;
  endToEndId?: string;
};

/** An event recorded in the outbox, for the account's webhook. */
export type EventRecorded = { kind: 'event.recorded'; accountId: string; event: OutboxEvent };

/**
 * An account's webhook URL set. `newSecret`: the first configuration, which creates the signing secret
 * (only if none exists yet: a concurrent first configuration conflicts); without it the secret is kept.
 */
export type WebhookConfigured = {
  kind: 'webhook.configured';
  accountId: string;
  url: string;
  at: string;
  newSecret?: string;
  /** The event types subscribed; absent: every type (a PUT without `events` subscribes to every type again). */
  events?: readonly WebhookEventType[];
};

/** A new signing secret for a configured webhook (none configured: a conflict); the old one stops at once. */
export type WebhookSecretRotated = { kind: 'webhook.secret_rotated'; accountId: string; secret: string; at: string };

/**
 * A new delivery series of one recorded event (same id, same stored body): a request the stream
 * forwards to the webhook queue as attempt 1 (and the sweep, if its record is lost). `reopen`: the
 * delivery is over (succeeded or failed) and opens a new series, only if it is still as read.
 */
export type WebhookRedeliveryRequested = {
  kind: 'webhook.redelivery_requested';
  accountId: string;
  eventId: string;
  at: string;
  reopen?: { status: 'succeeded' | 'failed'; attempts: number };
};

/**
 * An account's hosted checkout signing settings (shared/domain/checkout-signing.ts): forms required
 * signed or not, and with `issued` a new secret version, only if the version is still `previousVersion`
 * (two changes never issue the same version).
 */
export type CheckoutSigningSet = {
  kind: 'checkout_signing.set';
  accountId: string;
  required: boolean;
  version: number;
  previousVersion: number;
  issued: boolean;
};

/** A new customer under a fresh numeric id (reserved with it: a taken id is a clash, the route draws again). */
export type CustomerCreated = { kind: 'customer.created'; customer: Customer };

/**
 * A new invoice with its numeric id's reservation. Its ids were checked unused before the provider was
 * asked: a clash here is a race lost, answered 503 with nothing recorded (never drawn again in place,
 * which would register a second charge).
 */
export type InvoiceCreated = { kind: 'invoice.created'; invoice: NewInvoice };

/**
 * An invoice moved by its provider's word (a notification, a lookup, a card attempt settled), only if it
 * still has status `move.from` (else a duplicate or concurrent notification made the move first).
 * `invoice` is the invoice as read: a payment after a cancellation is made only if it was never paid,
 * a charge waiting for a lookup leaves the Pix sweep's index, an unlisted one is listed again.
 */
export type InvoiceMoved = {
  kind: 'invoice.moved';
  invoice: Invoice;
  move: InvoiceMove;
  at: string;
  /** The event the move records (the same transaction): added to the invoice's `eventIds` by the move's own write. */
  eventId?: string;
  /** A payment's rail and amount credited (a move to PAID): recorded on the invoice with the move. */
  payment?: { rail: PaymentRail; amountCents: number };
  /**
   * What a move that finds its invoice moved meanwhile (its condition failed) answers: by default it was
   * made already (a duplicate notification: nothing to do); `not_cancelable`: a merchant's cancellation
   * that lost to a payment or another cancellation is refused (400 invoice_not_pending, nothing written).
   */
  lostRace?: 'not_cancelable';
};

/**
 * A BolePix paid on its other rail after it was paid (issue 28): recorded on the invoice once, only if
 * it is still as read (`invoice.status`, paid by the other rail, no such payment recorded yet), with its
 * own ledger credit in the same transaction; a refund to the payer is due.
 */
export type InvoiceOtherRailPaid = { kind: 'invoice.other_rail_paid'; invoice: Invoice; rail: BolePixRail; amountCents: number; at: string };

/**
 * A hosted checkout paid (with its order), only from a status the table lets pay. `lostRace` says what
 * it means when another payment or move came first: `already_paid` (a card payment: 409, nothing
 * written) or `read_again` (a notification: the checkout is read again and the move applied anew).
 */
/**
 * A checkout paid. `cardAttempt` says what becomes of the card attempt it holds (issue 44): a card
 * payment resolves it (`resolved`, the default); another rail's payment keeps the one it read
 * (`{ keep: providerKey }`: the upkeep asks the provider about it and voids what it finds approved), or
 * finds none (`none`: conditional on none being there, so one recorded meanwhile is never dropped).
 */
export type CheckoutPaid = {
  kind: 'checkout.paid';
  reference: string;
  payment: CheckoutPayment;
  lostRace: 'already_paid' | 'read_again';
  cardAttempt?: 'resolved' | 'none' | { keep: string };
};

/** The order of a paid checkout moved with the invoice that paid it (canceled, refunded), only from `from` and that invoice. */
export type OrderMoved = {
  kind: 'order.moved';
  checkoutReference: string;
  invoiceReference: string;
  from: OrderStatus;
  to: OrderStatus;
  /** The order's version the move makes (the one read + 1). */
  version: number;
  at: string;
};

/**
 * A PENDING checkout abandoned (no rail left, or CHECKOUT_TTL passed). `unlistInvoice`: its Pix invoice,
 * taken out of the merchant's invoice list with it (still readable by reference; a late payment lists it again).
 */
export type CheckoutAbandoned = { kind: 'checkout.abandoned'; reference: string; at: string; unlistInvoice?: string };

/** An address found upstream for a CEP, cached until `expiresAt` (epoch seconds). */
export type CepCached = { kind: 'cep.cached'; address: CepAddress; expiresAt: number };

/** A card attempt's PAID invoice recorded: the attempt RECORDED, only if it still holds its provider key and is OPEN or UNKNOWN. */
export type CardAttemptRecorded = { kind: 'card_attempt.recorded'; attempt: CardAttempt };

/** A card attempt's answer lost and not verified: UNKNOWN, in the settler's index (only if still OPEN under its provider key). */
export type CardAttemptUnknown = { kind: 'card_attempt.unknown'; attempt: CardAttempt; at: string };

/** How a new checkout holds its tx_ref: the tx_ref itself (signed forms), or one sale under it (unsigned forms: issue 31). */
export type CheckoutReservation = { kind: 'tx_ref' } | { kind: 'sale'; sale: string };

/** A new PENDING checkout and its reservation, each conditional: a concurrent post of the same tx_ref or sale wins (IdClashError: run again). */
export type CheckoutCreated = { kind: 'checkout.created'; checkout: NewCheckout; reservation: CheckoutReservation };

/**
 * The checkout's current card attempt claimed by one request (or the upkeep) before the provider is
 * asked: a lease until `lease.untilMs`, only while the checkout is payable at that attempt and no other
 * lease runs at `nowMs` (else CardAttemptBusyError: 409).
 */
export type CheckoutCardClaimed = {
  kind: 'checkout.card_claimed';
  checkout: Checkout;
  lease: { id: string; untilMs: number };
  nowMs: number;
  /**
   * The card form's attempt about to be sent (issue 44), recorded with the claim (unless an earlier
   * lost answer of the same attempt is recorded) and the checkout moved to the upkeep's UNKNOWN
   * partition: an invocation killed mid-call leaves what the upkeep needs to ask the provider.
   */
  inFlight?: UnknownCardAttempt;
};

/** A claimed card attempt given up before the provider was asked (its attempt slot refused: issue 43): the lease removed, if still this one. */
export type CheckoutCardUnclaimed = { kind: 'checkout.card_unclaimed'; checkout: Checkout; leaseId: string };

/** The card attempt's answer was lost: the checkout UNKNOWN (it may have been charged), keeping what the upkeep asks the provider about. */
export type CheckoutCardLost = { kind: 'checkout.card_lost'; checkout: Checkout; lost: UnknownCardAttempt };

/**
 * The card attempt a checkout paid by another rail still held is settled (issue 44: voided if the
 * provider had approved it, or found never charged): it leaves the checkout and the upkeep's index.
 */
export type CheckoutCardAttemptCleared = { kind: 'checkout.card_attempt_cleared'; reference: string; providerKey: string };

/** The card attempt ended uncharged (declined, failed, or found not charged): PENDING again at the next attempt; a decline counts toward the cap. */
export type CheckoutCardReopened = { kind: 'checkout.card_reopened'; checkout: Checkout; declined: boolean };

/** An action of the merchant panel written to the account's audit log, in the same transaction as the action (Put once, never changed). */
export type PanelAudited = { kind: 'panel.audited'; entry: AuditEntry };

export type Change =
  | PanelAudited
  | LedgerTransfer
  | WithdrawalCreated
  | WithdrawalMoved
  | EventRecorded
  | WebhookConfigured
  | WebhookSecretRotated
  | WebhookRedeliveryRequested
  | CheckoutSigningSet
  | CustomerCreated
  | InvoiceCreated
  | InvoiceMoved
  | InvoiceOtherRailPaid
  | CheckoutPaid
  | OrderMoved
  | CheckoutAbandoned
  | CepCached
  | CardAttemptRecorded
  | CardAttemptUnknown
  | CheckoutCreated
  | CheckoutCardClaimed
  | CheckoutCardUnclaimed
  | CheckoutCardLost
  | CheckoutCardReopened
  | CheckoutCardAttemptCleared;

export type ChangeKind = Change['kind'];

/**
 * What a route or a worker may say, by its row (`changes`): the pipeline and the wiring refuse to compile
 * any other kind, and its table grants for changes derive from these (infra/cdk/table-access.ts).
 */
export type ChangeScope = { id: string; changes?: readonly ChangeKind[] };

/**
 * What applying a provider's word to an invoice may say (shared/app/invoices/apply-notification.ts): the
 * move, its transfer and events, its checkout's or order's move, a BolePix's payment on its other rail.
 */
export const INVOICE_MOVE_CHANGES = [
  'invoice.moved',
  'invoice.other_rail_paid',
  'ledger.transfer',
  'event.recorded',
  'checkout.paid',
  'order.moved',
  'checkout.abandoned',
] as const satisfies readonly ChangeKind[];

/**
 * What a card payment of the hosted checkout may say (shared/app/checkout/pay-checkout-by-card.ts,
 * checkout-payments.ts): the attempt claimed, lost or reopened, a decline counted, or the sale invoice
 * PAID with its credit, invoice.paid, the checkout paid and order.paid.
 */
export const CHECKOUT_CARD_CHANGES = [
  'checkout.card_claimed',
  'checkout.card_unclaimed',
  'checkout.card_lost',
  'checkout.card_reopened',
  'invoice.created',
  'ledger.transfer',
  'event.recorded',
  'checkout.paid',
] as const satisfies readonly ChangeKind[];

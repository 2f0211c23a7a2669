import type { ChangeKind } from '../../domain/changes';

/**
 * What the table's items may be asked, as IAM sees it (infra/cdk/table-access.ts turns grants into
 * statements): item actions on the partition keys of some prefixes (`dynamodb:LeadingKeys`). The adapter
 * owns the keys (./keys.ts) and what each change compiles to (./changes.ts), so what each change kind
 * writes is said here, once: a route's or a worker's grants for its changes derive from the kinds it
 * may say (its row's `changes`), never from a second hand-written list.
 */

export type ItemAction = 'GetItem' | 'BatchGetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'ConditionCheckItem' | 'Query';

/**
 * Permission for some actions on the items whose partition key matches one of `keys`; with `index`, a
 * Query of that index (whose partition keys must match); with `attributes`, only those attributes may
 * be named and no whole item returned (ReturnValues NONE or UPDATED_*).
 */
export type TableGrant = { actions: readonly ItemAction[]; keys: readonly string[]; index?: string; attributes?: readonly string[] };

/** Partition-key patterns (./keys.ts) for `ForAllValues:StringLike` on dynamodb:LeadingKeys. */
export const KEY = {
  account: 'ACCT#*',
  /** An account's balance shards (BAL#<account>#<k>) and their ledger entries' partitions (LEDGER#<account>#<k>). */
  balanceShard: 'BAL#*',
  ledger: 'LEDGER#*',
  publicKey: 'PUBKEY#*',
  idempotency: 'IDEM#*',
  customerId: 'CUSTID#*',
  invoice: 'INV#*',
  invoiceId: 'INVID#*',
  withdraw: 'WD#*',
  event: 'EVT#*',
  delivery: 'DLV#*',
  cep: 'CEP#*',
  /** GSI1 partitions of the account index (./account-index.ts): the reconciliation's pages. */
  accountIndex: 'ACCOUNTS#*',
  /** A hosted checkout (CHK#CHK-…) and a merchant's tx_ref reservation pointing to it. */
  checkout: 'CHK#*',
  checkoutTxRef: 'CHKTX#*',
  /** A card charge's attempt (./card-attempts.ts); GSI2 partitions of the UNKNOWN ones. */
  cardAttempt: 'CARDATT#*',
  cardUnknown: 'CARDUNK#*',
  /** Card testing caps (./attempt-slots.ts): the slot logs of a card fingerprint, a merchant and a hosted checkout. */
  declines: 'DECL#*',
  ipCounter: (limitClass: string) => `RL#${limitClass}#*`,
  /** GSI1 partitions of an account's lists. */
  invoiceList: 'ACCT#*#INVOICES',
  withdrawList: 'ACCT#*#WITHDRAWALS',
  deliveryList: 'ACCT#*#DELIVERIES',
  /** GSI1 partitions of an account's events (./event-log.ts): the events API. */
  eventList: 'ACCT#*#EVENTS',
  /** GSI2 partitions of the sweep's index (./forward-index.ts). */
  sweep: 'SWEEP#*',
  /** GSI2 partitions of the checkout upkeep (./checkout-index.ts): open and UNKNOWN checkouts. */
  checkoutOpen: 'CHKOPEN#*',
  checkoutUnknown: 'CHKUNK#*',
  /** GSI2 partitions of the Pix sweep (./pix-sweep-index.ts): PENDING API Pix charges awaiting their callback. */
  pixSweep: 'PIXSWEEP#*',
  /** The Pix sweep's cursor in each PSP's statement of Pix received (./pix-statement-cursor.ts). */
  pixStatement: 'PIXSTMT#*',
  /** GSI2 partitions of the rails upkeep (./rail-upkeep-index.ts): boletos to expire, or with a rail to close. */
  railUpkeep: 'RAILS#*',
  /** The merchant panel (./panel-invites.ts, ./panel-people.ts, ./attempt-slots.ts): invites, people, sessions, the limits' slot logs (PLIM#), the audit log. */
  panelInvite: 'PINV#*',
  /** An account's live invites, one per e-mail (./panel-invites.ts, issue 43). */
  panelInviteEntry: 'PINVS#*',
  panelPerson: 'PUSER#*',
  panelSession: 'PSESS#*',
  panelFailures: 'PLIM#*',
  panelAudit: 'PAUDIT#*',
  panelTeam: 'PTEAM#*',
  /** The panel's password reset links (./panel-resets.ts). */
  panelReset: 'PRESET#*',
  /** The panel's queued mail (./mail-outbox.ts). */
  mail: 'MAIL#*',
  /** Addresses the panel no longer mails, by the hash of the e-mail (./mail-suppressions.ts, issue 44). */
  mailSuppression: 'MAILSUP#*',
  /** GSI1 partitions of an account's panel people (./panel-team.ts). */
  peopleList: 'ACCT#*#PEOPLE',
  /** GSI1 partitions of a panel person's sessions (./panel-people.ts). */
  sessionList: 'PSESSLIST#*',
} as const;

/**
 * What each kind of change compiles to (./changes.ts and each room's compilers), as item actions on key
 * prefixes. A transaction has no IAM action of its own: its parts are authorized as PutItem,
 * UpdateItem, DeleteItem and ConditionCheckItem. Every kind has a row (the type says so); a unit test
 * compiles one change of each kind and checks every write it makes against its row.
 */
export const CHANGE_ACCESS: { readonly [K in ChangeKind]: readonly TableGrant[] } = {
  // The shards it moves (each conditional) and the entries in the entry shard's ledger partition.
  'ledger.transfer': [
    { actions: ['UpdateItem'], keys: [KEY.balanceShard] },
    { actions: ['PutItem'], keys: [KEY.ledger] },
  ],
  'withdrawal.created': [{ actions: ['PutItem'], keys: [KEY.withdraw] }],
  'withdrawal.moved': [{ actions: ['UpdateItem'], keys: [KEY.withdraw] }],
  'event.recorded': [{ actions: ['PutItem'], keys: [KEY.event] }],
  // The webhook settings live on the account item.
  'panel.audited': [{ actions: ['PutItem'], keys: [KEY.panelAudit] }],
  'webhook.configured': [{ actions: ['UpdateItem'], keys: [KEY.account] }],
  'webhook.secret_rotated': [{ actions: ['UpdateItem'], keys: [KEY.account] }],
  // The delivery reopened (when over) and the request item in the event's partition, which the stream forwards.
  'webhook.redelivery_requested': [
    { actions: ['UpdateItem'], keys: [KEY.delivery] },
    { actions: ['PutItem'], keys: [KEY.event] },
  ],
  // The signing settings live on the account item.
  'checkout_signing.set': [{ actions: ['UpdateItem'], keys: [KEY.account] }],
  // The customer in its account's partition, and its numeric id's reservation.
  'customer.created': [{ actions: ['PutItem'], keys: [KEY.account, KEY.customerId] }],
  // The invoice and its numeric id's pointer.
  'invoice.created': [{ actions: ['PutItem'], keys: [KEY.invoice, KEY.invoiceId] }],
  'invoice.moved': [{ actions: ['UpdateItem'], keys: [KEY.invoice] }],
  'invoice.other_rail_paid': [{ actions: ['UpdateItem'], keys: [KEY.invoice] }],
  'checkout.paid': [{ actions: ['UpdateItem'], keys: [KEY.checkout] }],
  'order.moved': [{ actions: ['UpdateItem'], keys: [KEY.checkout] }],
  // The checkout, and its Pix invoice taken out of the merchant's list.
  'checkout.abandoned': [{ actions: ['UpdateItem'], keys: [KEY.checkout, KEY.invoice] }],
  'cep.cached': [{ actions: ['PutItem'], keys: [KEY.cep] }],
  'card_attempt.recorded': [{ actions: ['UpdateItem'], keys: [KEY.cardAttempt] }],
  'card_attempt.unknown': [{ actions: ['UpdateItem'], keys: [KEY.cardAttempt] }],
  // The checkout and its tx_ref's (or sale's) reservation.
  'checkout.created': [{ actions: ['PutItem'], keys: [KEY.checkout, KEY.checkoutTxRef] }],
  'checkout.card_claimed': [{ actions: ['UpdateItem'], keys: [KEY.checkout] }],
  'checkout.card_unclaimed': [{ actions: ['UpdateItem'], keys: [KEY.checkout] }],
  'checkout.card_lost': [{ actions: ['UpdateItem'], keys: [KEY.checkout] }],
  'checkout.card_reopened': [{ actions: ['UpdateItem'], keys: [KEY.checkout] }],
  'checkout.card_attempt_cleared': [{ actions: ['UpdateItem'], keys: [KEY.checkout] }],
};

/** The grants of the changes of these kinds. */
export function changeGrants(kinds: readonly ChangeKind[]): TableGrant[] {
  return [...new Set(kinds)].flatMap((kind) => CHANGE_ACCESS[kind]);
}

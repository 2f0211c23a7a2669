import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { AnyRoute } from '../../shared/http/route';
import { checkoutUpkeepWorker, pixSweepWorker, queues, streamForwarder } from '../../shared/platform/queues';
import { failedCredentialsClass, ipLimitClassOf } from '../../shared/domain/route-policy';
import { changeGrants, type ItemAction, KEY, type TableGrant } from '../../shared/adapters/dynamo/access';
import { tableShape } from '../../shared/adapters/dynamo/table';
import { routes } from '../../shared/http/routes';
import { methodChargeRoutes } from '../../shared/http/route-table/charges';

/**
 * Per-function DynamoDB permissions: each function may call only the item actions its code calls, on
 * the items whose partition key has the prefixes it uses (`dynamodb:LeadingKeys`), and query only the
 * index it reads (`<table>/index/GSI1`, one partition kind). No function may batch-write; batch reads
 * (BatchGetItem) serve the balance (an account item and its balance shards in one call:
 * shared/adapters/dynamo/ledger-balance.ts) and the events API (a page's deliveries: ./event-log.ts). No function may Scan (the daily reconciliation pages through the account
 * index; only the operator's CLI scans, once, to index accounts created before it). A TransactGetItems is authorized by GetItem on each item.
 *
 * A transaction (TransactWriteItems) has no IAM action of its own: it is authorized by the PutItem,
 * UpdateItem, DeleteItem and ConditionCheckItem permissions of its parts, so the lists below name those.
 * A function's grants come in three parts: the request pipeline's (derived from the route's row), its
 * changes' (derived from the kinds its row names: shared/adapters/dynamo/access.ts says what each kind
 * writes, and the compilers refuse a kind the row does not name), and what its ports read, or write
 * outside a change, listed below. The local stack evaluates every call against the result (infra/local/iam/).
 */

export { KEY };
export type { ItemAction, TableGrant };

/** GSI2: the sweep's index (items the stream has not forwarded yet), beside the checkout upkeep's partitions of open checkouts. */
export const SWEEP_INDEX = 'GSI2';

/** Leaving the sweep's index once forwarded: only the index attributes of a withdraw, an event (or a redelivery request in its partition) or a queued mail. */
const LEAVE_SWEEP_INDEX: TableGrant = { actions: ['UpdateItem'], keys: [KEY.withdraw, KEY.event, KEY.mail], attributes: ['PK', 'SK', 'GSI2PK', 'GSI2SK'] };

/** The one index the list routes query. */
export const LIST_INDEX = 'GSI1';

/**
 * Every attribute the per-account counter updates name (shared/adapters/dynamo/rate-counter.ts), keys included:
 * the sliding log (rlLog) and, for limits above MAX_LOGGED_LIMIT, the fixed window (rlWin, rlCnt); their
 * condition's key version (kv) and disabled flag (dynamodb:Attributes counts a condition's attributes too).
 */
export const ACCOUNT_COUNTER_ATTRIBUTES = ['PK', 'SK', 'kv', 'disabled', 'rlLog', 'rlWin', 'rlCnt'];
/** Every attribute the per-IP counter updates name, keys included (the log, or the fixed window's count). */
export const IP_COUNTER_ATTRIBUTES = ['PK', 'SK', 'rlLog', 'rlCnt', 'ttl'];

/**
 * What the request pipeline itself does, read from the route's row (shared/http/pipeline.ts):
 * - rate limit per account: the counting UpdateItem of the account item (shared/adapters/dynamo/rate-counter.ts),
 *   which always asks the item back (ALL_NEW: its log gives the quota left, in one write and one round
 *   trip; UPDATED_NEW would return only the log's changed slots). A read route may name only the
 *   counter attributes, and reads the account item back (readBack: no ReturnValues limit); a write
 *   route uses the account's settings from it and is not limited to attributes;
 * - rate limit per IP: the counting UpdateItem of the class's RL# items (counter attributes only, which
 *   are all such an item holds: asking it back whole, ALL_NEW, reads nothing more), the class read by
 *   ipLimitClassOf (a public route with table access counts as 'public');
 * - a Bearer route counts failed tokens per IP: the 'unauthenticated' class's RL# items;
 * - a Bearer route not counted per account checks the token's key version: GetItem of the account;
 * - idempotency: the lock (PutItem), its completion (UpdateItem, in the commit's transaction), its
 *   release (DeleteItem), and for a request refused before the lock, the key's record read (GetItem:
 *   a reused key is named first), all on IDEM# records (shared/adapters/dynamo/idempotency.ts).
 */
export function pipelineGrants(route: AnyRoute): ReadBackGrant[] {
  const grants: ReadBackGrant[] = [];
  if (route.rateLimit === 'account') {
    grants.push(
      route.access === 'read'
        ? { actions: ['UpdateItem'], keys: [KEY.account], attributes: ACCOUNT_COUNTER_ATTRIBUTES, readBack: true }
        : { actions: ['UpdateItem'], keys: [KEY.account] },
    );
  }
  const ipClasses = [ipLimitClassOf(route), failedCredentialsClass(route)].filter((c) => c !== undefined);
  if (ipClasses.length > 0) {
    grants.push({ actions: ['UpdateItem'], keys: ipClasses.map((c) => KEY.ipCounter(c)), attributes: IP_COUNTER_ATTRIBUTES, readBack: true });
  }
  if (route.auth === 'bearer' && route.rateLimit !== 'account') grants.push({ actions: ['GetItem'], keys: [KEY.account] });
  if (route.idempotency !== 'none') grants.push({ actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], keys: [KEY.idempotency] });
  return grants;
}

/**
 * What applying a provider's word to an invoice reads (shared/app/invoices/apply-notification.ts): the
 * invoice, and for an invoice of a hosted checkout its checkout; the moves themselves are changes
 * (INVOICE_MOVE_CHANGES), their grants derived.
 */
const INVOICE_MOVE_READS: readonly TableGrant[] = [{ actions: ['GetItem'], keys: [KEY.invoice, KEY.checkout] }];

/**
 * What each route's ports read, or write outside its changes (functions/ and the use cases they call);
 * the pipeline's grants and its changes' are derived (routeGrants). Every route of shared/http/routes.ts
 * must have a row: a new route without one stops the synthesis.
 */
/**
 * A signed-in panel page: its session read (and kept alive, or closed where it is used once its person
 * is gone from the team) and its person read (shared/http/panel/signed-in.ts).
 */
const PANEL_SIGNED_IN: readonly TableGrant[] = [
  { actions: ['GetItem', 'UpdateItem', 'DeleteItem'], keys: [KEY.panelSession] },
  { actions: ['GetItem'], keys: [KEY.panelPerson] },
];
/** A signed-in panel form with step-up: the above, and a code used once (the person's step, the failures counted). */
const PANEL_STEP_UP: readonly TableGrant[] = [
  { actions: ['GetItem', 'UpdateItem'], keys: [KEY.panelSession, KEY.panelPerson, KEY.panelFailures] },
  { actions: ['DeleteItem'], keys: [KEY.panelSession] },
];

/**
 * The team page: the account's people (GSI1) and its pending invites (their partition, PINVS#), and
 * which of their addresses are suppressed (issue 44: the invite's mail "não entregue"), in one batch read.
 */
const PANEL_TEAM_PAGE: readonly TableGrant[] = [
  { actions: ['Query'], keys: [KEY.peopleList], index: LIST_INDEX },
  { actions: ['Query'], keys: [KEY.panelInviteEntry] },
  // …and how the invites' mails ended (their status only: a message's text is sealed, and removed once sent).
  { actions: ['BatchGetItem'], keys: [KEY.mailSuppression, KEY.mail] },
];

/** The panel's webhook page: the account's webhook as configured, and its latest deliveries (GSI1). */
const PANEL_WEBHOOK_PAGE: readonly TableGrant[] = [
  { actions: ['GetItem'], keys: [KEY.account] },
  { actions: ['Query'], keys: [KEY.deliveryList], index: LIST_INDEX },
];

export const ROUTE_PORT_GRANTS: Readonly<Record<string, readonly TableGrant[]>> = {
  // Public-key item of the Basic key pair (functions/auth/token.ts).
  [routes.authToken.id]: [{ actions: ['GetItem'], keys: [KEY.publicKey] }],
  // The account item (its shard count) and its balance shards in one BatchGetItem (shared/adapters/dynamo/ledger-balance.ts).
  [routes.balance.id]: [{ actions: ['BatchGetItem'], keys: [KEY.account, KEY.balanceShard] }],
  // The account's shard count, then a Query of each shard's ledger partition (shared/adapters/dynamo/ledger-statement.ts).
  [routes.balanceTransactions.id]: [
    { actions: ['GetItem'], keys: [KEY.account] },
    { actions: ['Query'], keys: [KEY.ledger] },
  ],
  [routes.createCustomer.id]: [],
  [routes.getCustomer.id]: [{ actions: ['GetItem'], keys: [KEY.account] }],
  // Query of the account's partition, CUSTOMER# sort keys (shared/adapters/dynamo/customers.ts).
  [routes.listCustomers.id]: [{ actions: ['Query'], keys: [KEY.account] }],
  [routes.listCountries.id]: [],
  [routes.listStates.id]: [],
  // The CEP cache read (shared/adapters/dynamo/cep-cache.ts).
  [routes.searchCep.id]: [{ actions: ['GetItem'], keys: [KEY.cep] }],
  [routes.createPix.id]: [],
  // A charge route derived from its method's row (shared/http/route-table/charges.ts): its use case reads nothing
  // beyond what its pipeline and its change (invoice.created: its ids checked unused) need, as the Pix charge's.
  ...Object.fromEntries(Object.values(methodChargeRoutes).map((route): [string, readonly TableGrant[]] => [route.id, []])),
  // The payer must be one of the account's customers.
  [routes.createBoleto.id]: [{ actions: ['GetItem'], keys: [KEY.account] }],
  // The unused reference check and the re-read before a void; the charge's attempt (shared/adapters/dynamo/card-attempts.ts):
  // opened before the provider is asked, its provider key renewed, dropped, closed; its slot taken in the card's and the
  // merchant's logs and given back (shared/adapters/dynamo/attempt-slots.ts: conditional UpdateItems, alone or in one transaction).
  [routes.createCard.id]: [
    ...INVOICE_MOVE_READS,
    { actions: ['GetItem'], keys: [KEY.cardAttempt] },
    { actions: ['PutItem', 'UpdateItem', 'DeleteItem'], keys: [KEY.cardAttempt] },
    { actions: ['UpdateItem'], keys: [KEY.declines] },
  ],
  [routes.listInvoices.id]: [{ actions: ['Query'], keys: [KEY.invoiceList], index: LIST_INDEX }],
  // The id pointer, then the invoice (shared/adapters/dynamo/invoice-lookup.ts).
  [routes.getInvoice.id]: [{ actions: ['GetItem'], keys: [KEY.invoiceId, KEY.invoice] }],
  // A merchant's cancellation (issue 46): the invoice by its id pointer, and its checkout (an unpaid one's Pix charge abandons it); the move is a change.
  [routes.cancelInvoice.id]: [{ actions: ['GetItem'], keys: [KEY.invoiceId, KEY.invoice, KEY.checkout] }],
  [routes.getInvoiceByReference.id]: [{ actions: ['GetItem'], keys: [KEY.invoice] }],
  [routes.getPixByReference.id]: [{ actions: ['GetItem'], keys: [KEY.invoice] }],
  [routes.getPixByTxid.id]: [{ actions: ['GetItem'], keys: [KEY.invoice] }],
  // The reservation's plan: the shards read (BatchGetItem with the account item; a refusal rests on a
  // TransactGetItems of the shards, i.e. GetItem) (shared/adapters/dynamo/withdrawals.ts).
  [routes.createWithdraw.id]: [
    { actions: ['BatchGetItem'], keys: [KEY.account, KEY.balanceShard] },
    { actions: ['GetItem'], keys: [KEY.balanceShard] },
  ],
  [routes.getWithdraw.id]: [{ actions: ['GetItem'], keys: [KEY.withdraw] }],
  [routes.listWithdrawals.id]: [{ actions: ['Query'], keys: [KEY.withdrawList], index: LIST_INDEX }],
  // The webhook settings live on the account item.
  [routes.getWebhook.id]: [{ actions: ['GetItem'], keys: [KEY.account] }],
  [routes.putWebhook.id]: [],
  [routes.rotateWebhookSecret.id]: [],
  [routes.testWebhook.id]: [],
  [routes.webhookDeliveries.id]: [{ actions: ['Query'], keys: [KEY.deliveryList], index: LIST_INDEX }],
  // The events API (issue 29): the account's events from GSI1, each page's deliveries read together, the webhook settings.
  [routes.listEvents.id]: [
    { actions: ['Query'], keys: [KEY.eventList], index: LIST_INDEX },
    { actions: ['BatchGetItem'], keys: [KEY.delivery] },
    { actions: ['GetItem'], keys: [KEY.account] },
  ],
  [routes.getEvent.id]: [{ actions: ['GetItem'], keys: [KEY.event, KEY.delivery, KEY.account] }],
  [routes.redeliverEvent.id]: [{ actions: ['GetItem'], keys: [KEY.event, KEY.delivery, KEY.account] }],
  // The invoice (and its checkout) or the withdraw a notification names.
  [routes.providerNotification.id]: [...INVOICE_MOVE_READS, { actions: ['GetItem'], keys: [KEY.withdraw] }],
  // Each charge the callback names: its invoice read by txid, then what the PSP holds applied as a notification is.
  [routes.providerPixCallback.id]: INVOICE_MOVE_READS,
  // The boleto's invoice (functions/boleto/page.ts).
  [routes.boletoPage.id]: [{ actions: ['GetItem'], keys: [KEY.invoice] }],
  // The public key and its account, the tx_ref's reservation and its checkout (shared/adapters/dynamo/checkout-lookup.ts).
  [routes.checkoutEntry.id]: [{ actions: ['GetItem'], keys: [KEY.publicKey, KEY.account, KEY.checkoutTxRef, KEY.checkout] }],
  // The checkout of the link and its Pix invoice (shared/http/checkout/page-answer.ts).
  [routes.checkoutPage.id]: [{ actions: ['GetItem'], keys: [KEY.checkout, KEY.invoice] }],
  // The checkout, the account's card setting, the Pix invoice (the page again), the card invoice's
  // reference checked unused; the attempt's slot taken in the card's, the merchant's and the checkout's logs, and given back.
  [routes.checkoutCard.id]: [
    { actions: ['GetItem'], keys: [KEY.checkout, KEY.account, KEY.invoice] },
    { actions: ['UpdateItem'], keys: [KEY.declines] },
  ],
  [routes.checkoutStatus.id]: [{ actions: ['GetItem'], keys: [KEY.checkout] }],
  // The tx_ref's reservation, then its checkout (shared/adapters/dynamo/checkout-lookup.ts).
  [routes.getCheckout.id]: [
    { actions: ['Query'], keys: [KEY.checkoutTxRef] },
    { actions: ['GetItem'], keys: [KEY.checkout] },
  ],
  [routes.openApiDocument.id]: [],
  // The merchant panel (shared/adapters/dynamo/panel-invites.ts and panel-people.ts): its own key prefixes only.
  [routes.panelSignInPage.id]: [{ actions: ['GetItem'], keys: [KEY.panelSession] }],
  [routes.panelSignIn.id]: [
    { actions: ['GetItem'], keys: [KEY.panelFailures, KEY.panelPerson] },
    { actions: ['UpdateItem'], keys: [KEY.panelFailures] },
    { actions: ['PutItem'], keys: [KEY.panelSession] },
  ],
  [routes.panelCodePage.id]: [{ actions: ['GetItem'], keys: [KEY.panelSession] }],
  [routes.panelCode.id]: [
    { actions: ['GetItem'], keys: [KEY.panelSession, KEY.panelFailures, KEY.panelPerson] },
    { actions: ['UpdateItem'], keys: [KEY.panelFailures, KEY.panelPerson] },
    { actions: ['PutItem', 'DeleteItem'], keys: [KEY.panelSession] },
    // The audit entry, and the sign-in notice queued with the session.
    { actions: ['PutItem'], keys: [KEY.panelAudit, KEY.mail] },
  ],
  // Password recovery (shared/adapters/dynamo/panel-resets.ts): a link asked (the person read, the per-e-mail count, the link with its mail, the audit entry) …
  [routes.panelForgotPage.id]: [],
  [routes.panelForgotPassword.id]: [
    { actions: ['GetItem'], keys: [KEY.panelPerson, KEY.panelFailures] },
    { actions: ['UpdateItem'], keys: [KEY.panelFailures] },
    { actions: ['PutItem'], keys: [KEY.panelReset, KEY.mail, KEY.panelAudit] },
  ],
  // … and used: the link read, the code (failures counted, its step used), the link deleted with the password replaced, the sessions tidied.
  [routes.panelResetPage.id]: [{ actions: ['GetItem'], keys: [KEY.panelReset] }],
  [routes.panelResetPassword.id]: [
    // The account item: its name, which the password policy reads (issue 43).
    { actions: ['GetItem'], keys: [KEY.panelReset, KEY.panelPerson, KEY.panelFailures, KEY.account] },
    { actions: ['UpdateItem'], keys: [KEY.panelFailures, KEY.panelPerson] },
    { actions: ['DeleteItem'], keys: [KEY.panelReset, KEY.panelSession] },
    { actions: ['Query'], keys: [KEY.sessionList], index: LIST_INDEX },
    { actions: ['PutItem'], keys: [KEY.panelAudit] },
  ],
  // The invite's link, its e-mail's live entry (PINVS#) and the person who sent it (issue 43).
  [routes.panelInvitePage.id]: [{ actions: ['GetItem'], keys: [KEY.panelInvite, KEY.panelInviteEntry, KEY.panelPerson] }],
  // The enrollment's transaction: the invite used (its link and live entry), the person, the audit entry, an owner counted (PTEAM#), the inviter checked.
  [routes.panelAcceptInvite.id]: [
    { actions: ['GetItem', 'DeleteItem'], keys: [KEY.panelInvite, KEY.panelInviteEntry] },
    { actions: ['GetItem', 'ConditionCheckItem'], keys: [KEY.panelPerson] },
    // The account's name, which the password policy reads (issue 43).
    { actions: ['GetItem'], keys: [KEY.account] },
    { actions: ['PutItem'], keys: [KEY.panelPerson, KEY.panelAudit] },
    { actions: ['UpdateItem'], keys: [KEY.panelTeam] },
  ],
  [routes.panelSignOut.id]: [
    { actions: ['GetItem', 'UpdateItem', 'DeleteItem'], keys: [KEY.panelSession] },
    { actions: ['PutItem'], keys: [KEY.panelAudit] },
  ],
  // GET /api/customers' own store: a Query of the account's partition, CUSTOMER# sort keys.
  [routes.panelCustomers.id]: [...PANEL_SIGNED_IN, { actions: ['Query'], keys: [KEY.account] }],
  // GET /api/customer/{id}'s read: the customer item in the account's partition.
  [routes.panelCustomer.id]: [...PANEL_SIGNED_IN, { actions: ['GetItem'], keys: [KEY.account] }],
  [routes.panelMethods.id]: [...PANEL_SIGNED_IN, { actions: ['GetItem'], keys: [KEY.account] }],
  [routes.panelKeysPage.id]: [...PANEL_SIGNED_IN, { actions: ['GetItem'], keys: [KEY.account] }],
  // Step-up (the person's code step, the failures), then the rotation's transaction: the account's key version, the public keys, the audit entry.
  [routes.panelRotateKeys.id]: [
    ...PANEL_STEP_UP,
    { actions: ['GetItem', 'UpdateItem'], keys: [KEY.account] },
    { actions: ['PutItem', 'DeleteItem'], keys: [KEY.publicKey] },
    { actions: ['PutItem'], keys: [KEY.panelAudit] },
  ],
  // The webhook as configured, and GET /api/webhook/deliveries' read (GSI1) for the page.
  [routes.panelWebhooksPage.id]: [...PANEL_SIGNED_IN, ...PANEL_WEBHOOK_PAGE],
  // Step-up, then the webhook's change and the audit entry (their grants derive from the row's changes).
  [routes.panelSetWebhook.id]: [...PANEL_STEP_UP, ...PANEL_WEBHOOK_PAGE],
  [routes.panelRotateWebhookSecret.id]: [...PANEL_STEP_UP, ...PANEL_WEBHOOK_PAGE],
  // POST /api/webhook/test's ping (its event's grant derives from the row's changes) with the audit entry.
  [routes.panelTestWebhook.id]: [...PANEL_SIGNED_IN, ...PANEL_WEBHOOK_PAGE],
  // The event and its delivery read (the account's own, a series over); the request and the reopening are its change.
  [routes.panelRedeliverWebhook.id]: [...PANEL_SIGNED_IN, ...PANEL_WEBHOOK_PAGE, { actions: ['GetItem'], keys: [KEY.event, KEY.delivery] }],
  // The hosted checkout's signing settings on the account item; a change of them is its change (UpdateItem ACCT#).
  [routes.panelCheckoutPage.id]: [...PANEL_SIGNED_IN, { actions: ['GetItem'], keys: [KEY.account] }],
  [routes.panelSetCheckoutSigning.id]: [...PANEL_STEP_UP, { actions: ['GetItem'], keys: [KEY.account] }],
  [routes.panelRotateCheckoutSecret.id]: [...PANEL_STEP_UP, { actions: ['GetItem'], keys: [KEY.account] }],
  [routes.panelAuditLog.id]: [...PANEL_SIGNED_IN, { actions: ['Query'], keys: [KEY.panelAudit] }],
  // GET /api/pixout/list's store (GSI1), the account's withdrawal fee.
  [routes.panelWithdrawals.id]: [
    ...PANEL_SIGNED_IN,
    { actions: ['GetItem'], keys: [KEY.account] },
    { actions: ['Query'], keys: [KEY.withdrawList], index: LIST_INDEX },
  ],
  // Step-up, then POST /api/pixout/create's reservation plan (as its row above); a refusal shows the list again.
  [routes.panelRequestWithdrawal.id]: [
    ...PANEL_STEP_UP,
    { actions: ['GetItem'], keys: [KEY.account, KEY.balanceShard] },
    { actions: ['BatchGetItem'], keys: [KEY.account, KEY.balanceShard] },
    { actions: ['Query'], keys: [KEY.withdrawList], index: LIST_INDEX },
  ],
  [routes.panelWithdrawal.id]: [...PANEL_SIGNED_IN, { actions: ['GetItem'], keys: [KEY.withdraw] }],
  // GET /api/invoices' reader (GSI1).
  [routes.panelInvoices.id]: [...PANEL_SIGNED_IN, { actions: ['Query'], keys: [KEY.invoiceList], index: LIST_INDEX }],
  // The invoice, then the events its changes recorded and their deliveries.
  [routes.panelInvoice.id]: [...PANEL_SIGNED_IN, { actions: ['GetItem'], keys: [KEY.invoice, KEY.event, KEY.delivery] }],
  // GET /api/balance/transactions' reader: the shard count, then each shard's ledger partition.
  [routes.panelStatement.id]: [...PANEL_SIGNED_IN, { actions: ['GetItem'], keys: [KEY.account] }, { actions: ['Query'], keys: [KEY.ledger] }],
  [routes.panelStatementCsv.id]: [...PANEL_SIGNED_IN, { actions: ['GetItem'], keys: [KEY.account] }, { actions: ['Query'], keys: [KEY.ledger] }],
  // The person's own security page: their sessions (GSI1, shared/adapters/dynamo/panel-people.ts).
  [routes.panelSecurity.id]: [...PANEL_SIGNED_IN, { actions: ['Query'], keys: [KEY.sessionList], index: LIST_INDEX }],
  // The current password checked as a sign-in (the failures counted), then every session ended (the person's
  // sessionsValidFrom and new hash; the listed sessions deleted) and the audit entry.
  [routes.panelChangePassword.id]: [
    ...PANEL_SIGNED_IN,
    // The account's name, which the password policy reads (issue 43).
    { actions: ['GetItem'], keys: [KEY.account] },
    { actions: ['GetItem', 'UpdateItem'], keys: [KEY.panelFailures] },
    { actions: ['UpdateItem'], keys: [KEY.panelPerson] },
    { actions: ['Query'], keys: [KEY.sessionList], index: LIST_INDEX },
    { actions: ['DeleteItem'], keys: [KEY.panelSession] },
    { actions: ['PutItem'], keys: [KEY.panelAudit] },
  ],
  // Step-up with the current authenticator (nothing stored until the new one is confirmed).
  [routes.panelStartNewAuthenticator.id]: [...PANEL_STEP_UP, { actions: ['Query'], keys: [KEY.sessionList], index: LIST_INDEX }],
  // The new authenticator in the old one's place (conditional on the old one), the audit entry.
  [routes.panelConfirmNewAuthenticator.id]: [
    ...PANEL_SIGNED_IN,
    { actions: ['UpdateItem'], keys: [KEY.panelPerson] },
    { actions: ['Query'], keys: [KEY.sessionList], index: LIST_INDEX },
    { actions: ['PutItem'], keys: [KEY.panelAudit] },
  ],
  [routes.panelSignOutEverywhere.id]: [
    ...PANEL_SIGNED_IN,
    { actions: ['UpdateItem'], keys: [KEY.panelPerson] },
    { actions: ['Query'], keys: [KEY.sessionList], index: LIST_INDEX },
    { actions: ['DeleteItem'], keys: [KEY.panelSession] },
    { actions: ['PutItem'], keys: [KEY.panelAudit] },
  ],
  // The account's people (GSI1, by e-mail: shared/adapters/dynamo/panel-team.ts) and its pending invites (PINVS#: ./panel-invites.ts).
  [routes.panelTeam.id]: [...PANEL_SIGNED_IN, ...PANEL_TEAM_PAGE],
  // Step-up, then the operator's invite use case (the account active, the e-mail unused, the invite) and the audit entry.
  [routes.panelInvitePerson.id]: [
    ...PANEL_STEP_UP,
    ...PANEL_TEAM_PAGE,
    { actions: ['GetItem'], keys: [KEY.account, KEY.panelInviteEntry] },
    // The invite with its mail queued, in place of the e-mail's earlier one (its link deleted), the inviter checked; the audit entry.
    { actions: ['PutItem'], keys: [KEY.panelInvite, KEY.panelInviteEntry, KEY.mail, KEY.panelAudit] },
    { actions: ['DeleteItem'], keys: [KEY.panelInvite] },
    { actions: ['ConditionCheckItem'], keys: [KEY.panelPerson] },
  ],
  // Step-up, then the role's transaction: the person (as read), the owner count, the audit entry, the invites they sent revoked when lowered.
  [routes.panelChangeRole.id]: [
    ...PANEL_STEP_UP,
    ...PANEL_TEAM_PAGE,
    { actions: ['UpdateItem'], keys: [KEY.panelTeam] },
    { actions: ['PutItem'], keys: [KEY.panelAudit] },
    { actions: ['DeleteItem'], keys: [KEY.panelInvite, KEY.panelInviteEntry] },
  ],
  // The person removed (the invites they sent revoked with them), or (issue 43) a pending invite revoked: its link and live entry, the audit entry.
  [routes.panelRemovePerson.id]: [
    ...PANEL_STEP_UP,
    ...PANEL_TEAM_PAGE,
    { actions: ['DeleteItem'], keys: [KEY.panelPerson, KEY.panelInvite, KEY.panelInviteEntry] },
    { actions: ['UpdateItem'], keys: [KEY.panelTeam] },
    { actions: ['PutItem'], keys: [KEY.panelAudit] },
  ],
  // The balance as GET /api/balance reads it, and the month's payment entries as GET /api/balance/transactions does.
  [routes.panelOverview.id]: [
    ...PANEL_SIGNED_IN,
    { actions: ['GetItem'], keys: [KEY.account] },
    { actions: ['BatchGetItem'], keys: [KEY.account, KEY.balanceShard] },
    { actions: ['Query'], keys: [KEY.ledger] },
  ],
};

/**
 * The daily reconciliation (functions/workers/reconcile.ts, shared/adapters/dynamo/ledger-reconcile.ts): per account,
 * the account item and its balance shards (BatchGetItem) and each shard's ledger partition (Query),
 * read only; the account ids come from the account index (GSI1 `ACCOUNTS#`), a page per message.
 */
export const RECONCILE_GRANTS: readonly TableGrant[] = [
  { actions: ['BatchGetItem'], keys: [KEY.account, KEY.balanceShard] },
  { actions: ['Query'], keys: [KEY.ledger] },
];

/** What each queue's consumer does with the table (functions/workers/). */
export const QUEUE_WORKER_GRANTS: Readonly<Record<string, readonly TableGrant[]>> = {
  // Is the withdraw still PENDING? Then bankRequestedAt once the bank took it (payout.ts).
  [queues.payouts.id]: [{ actions: ['GetItem', 'UpdateItem'], keys: [KEY.withdraw] }],
  // The event, the account's URL and sealed secret, the delivery record (claimed, then updated: webhook-sender.ts).
  [queues.webhooks.id]: [
    { actions: ['GetItem'], keys: [KEY.event, KEY.account, KEY.delivery] },
    { actions: ['UpdateItem'], keys: [KEY.delivery] },
  ],
  // A page of the account index (GSI1 ACCOUNTS#), then each account's shards and ledger partitions, read only.
  [queues.reconcile.id]: [{ actions: ['Query'], keys: [KEY.accountIndex], index: 'GSI1' }, ...RECONCILE_GRANTS],
  // The queued message (unsealed), claimed (its recipient checked not suppressed, issue 44), then marked sent or not delivered with its text removed (mail-sender.ts).
  [queues.mail.id]: [
    { actions: ['GetItem', 'UpdateItem'], keys: [KEY.mail] },
    { actions: ['ConditionCheckItem'], keys: [KEY.mailSuppression] },
  ],
  // SES's bounces and complaints: each address to suppress written once (mail-feedback.ts, ./mail-suppressions.ts).
  [queues.mailFeedback.id]: [{ actions: ['PutItem'], keys: [KEY.mailSuppression] }],
};

/** What each stream consumer does with the table's items (it reads the stream through its event source). */
export const STREAM_CONSUMER_GRANTS: Readonly<Record<string, readonly TableGrant[]>> = {
  // Sends to the queues (the records carry what it forwards), then takes the items out of the sweep's index.
  [streamForwarder.id]: [LEAVE_SWEEP_INDEX],
};

/** The sweep (functions/workers/sweep.ts): what is still in its index, forwarded like the stream does. */
export const SWEEP_GRANTS: readonly TableGrant[] = [{ actions: ['Query'], keys: [KEY.sweep], index: SWEEP_INDEX }, LEAVE_SWEEP_INDEX];

/**
 * The Pix sweep (functions/workers/pix-sweep.ts, shared/invoices/pix-sweep.ts), deployed with an API
 * Pix PSP: the PIXSWEEP partitions of GSI2, each invoice re-read and its charge's outcome applied as
 * the callbacks apply it; a charge still unpaid a day after its due date leaves the index (an
 * UpdateItem of the invoice).
 */
export const PIX_SWEEP_GRANTS: readonly TableGrant[] = [
  { actions: ['Query'], keys: [KEY.pixSweep], index: SWEEP_INDEX },
  ...INVOICE_MOVE_READS,
  // A charge given up on leaves the index (shared/adapters/dynamo/invoices.ts).
  { actions: ['UpdateItem'], keys: [KEY.invoice] },
  // Its cursor in the PSP's statement of Pix received (shared/adapters/dynamo/pix-statement-cursor.ts).
  { actions: ['GetItem', 'PutItem'], keys: [KEY.pixStatement] },
  ...changeGrants(pixSweepWorker.changes),
];

/**
 * The checkout upkeep (functions/workers/checkout-upkeep.ts, shared/app/checkout/upkeep.ts): the open and
 * UNKNOWN partitions of GSI2, each checkout re-read, the card invoice's reference checked unused (and
 * recorded, before a void); an abandon or a reopen moves the checkout; a card payment the provider
 * confirms is recorded as the card form records it: the invoice and its pointer, the balance credit
 * and its ledger entry, invoice.paid, the checkout's move and order.paid.
 */
export const CHECKOUT_UPKEEP_GRANTS: readonly TableGrant[] = [
  // The rails upkeep (shared/app/invoices/rail-upkeep.ts) reads the RAILS partitions too; its moves and retirements update invoices.
  { actions: ['Query'], keys: [KEY.checkoutOpen, KEY.checkoutUnknown, KEY.cardUnknown, KEY.railUpkeep], index: SWEEP_INDEX },
  // API card charges whose answer was lost: the attempt closed (shared/app/charges/settle-card-attempt.ts).
  { actions: ['UpdateItem', 'DeleteItem'], keys: [KEY.cardAttempt] },
  { actions: ['GetItem'], keys: [KEY.checkout, KEY.invoice] },
  ...changeGrants(checkoutUpkeepWorker.changes),
  ...invoiceIdCheck(checkoutUpkeepWorker.changes),
];

/**
 * A Scan of the whole table limited to some attributes. A Scan has no partition key, so
 * dynamodb:LeadingKeys cannot limit it (ForAllValues over no keys is true): the attribute limit is
 * what keeps it from reading items. The request must name attributes (dynamodb:Attributes present),
 * only these, and ask for only those back (`Select: 'SPECIFIC_ATTRIBUTES'` stated in the request: a
 * Scan that names no projection would otherwise return whole items).
 */
export type ScanGrant = { attributes: readonly string[] };

/** allAccountIds: a scan filtered on SK = ACCOUNT (account items), projecting accountId; the keys come back as LastEvaluatedKey. */
export const RECONCILE_SCAN: ScanGrant = { attributes: [tableShape.partitionKey, tableShape.sortKey, 'accountId'] };

/** Lets the role Scan the table (never an index), naming and returning only the grant's attributes. */
export function grantTableScan(role: iam.IRole, table: dynamodb.ITable, grant: ScanGrant): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['dynamodb:Scan'],
      resources: [table.tableArn],
      conditions: {
        'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...grant.attributes].sort() },
        Null: { 'dynamodb:Attributes': 'false' },
        StringEquals: { 'dynamodb:Select': 'SPECIFIC_ATTRIBUTES' },
      },
    }),
  );
}

/** A row of one of the tables above; a function without one stops the synthesis. */
export function grantsOf(table: Readonly<Record<string, readonly TableGrant[]>>, id: string): readonly TableGrant[] {
  const grants = table[id];
  if (!grants) throw new Error(`infra/cdk/table-access.ts: no table grants for ${id}: list the table actions its handler calls`);
  return grants;
}

/**
 * A new invoice's ids checked unused first: its INV# and INVID# keys read in one BatchGetItem
 * (shared/adapters/dynamo/invoices.ts `dynamoInvoiceIds`), by whatever may create an invoice.
 */
export function invoiceIdCheck(changes: readonly string[]): TableGrant[] {
  return changes.includes('invoice.created') ? [{ actions: ['BatchGetItem'], keys: [KEY.invoice, KEY.invoiceId] }] : [];
}

/** The table grants of a route's function: the pipeline's, its ports', and its changes' (derived from the kinds its row names). */
export function routeGrants(route: AnyRoute): ReadBackGrant[] {
  const changes = route.changes ?? [];
  const grants = [...pipelineGrants(route), ...grantsOf(ROUTE_PORT_GRANTS, route.id), ...changeGrants(changes), ...invoiceIdCheck(changes)];
  if (route.access === 'none' && grants.length > 0) throw new Error(`Route ${route.id} says access 'none' but is granted table actions`);
  return grants;
}

/**
 * A grant limited to `attributes` whose item may still be asked back whole (ReturnValues ALL_NEW or
 * ALL_OLD): the request may name only those attributes, and reads the item. Only the rate counters
 * (pipelineGrants): issue 44, finding 1.
 */
export type ReadBackGrant = TableGrant & { readBack?: true };

/** A statement's identity: its resource and its condition; actions sharing both share a statement. */
type Scope = { index?: string; keys: readonly string[]; attributes?: readonly string[]; readBack?: true };

function scopeId(scope: Scope): string {
  return JSON.stringify([scope.index ?? '', [...scope.keys].sort(), scope.attributes ? [...scope.attributes].sort() : null, scope.readBack === true]);
}

/**
 * Adds the grants to the role as few statements: an action's key patterns are merged per resource
 * and attribute limit, then actions with the same patterns share a statement.
 */
export function grantTableAccess(role: iam.IRole, table: dynamodb.ITable, grants: readonly ReadBackGrant[]): void {
  const keysByAction = new Map<string, { scope: Omit<Scope, 'keys'>; action: ItemAction; keys: Set<string> }>();
  for (const grant of grants) {
    if (grant.index !== undefined && grant.actions.some((a) => a !== 'Query')) throw new Error('An index grant may only Query');
    const readBack = grant.attributes !== undefined && grant.readBack === true ? { readBack: true as const } : {};
    for (const action of grant.actions) {
      const id = JSON.stringify([action, grant.index ?? '', grant.attributes ? [...grant.attributes].sort() : null, 'readBack' in readBack]);
      const entry = keysByAction.get(id) ?? { scope: { index: grant.index, attributes: grant.attributes, ...readBack }, action, keys: new Set<string>() };
      for (const key of grant.keys) entry.keys.add(key);
      keysByAction.set(id, entry);
    }
  }
  const statements = new Map<string, { scope: Scope; actions: ItemAction[] }>();
  for (const { scope, action, keys } of keysByAction.values()) {
    const full: Scope = { ...scope, keys: [...keys].sort() };
    const id = scopeId(full);
    const statement = statements.get(id) ?? { scope: full, actions: [] };
    statement.actions.push(action);
    statements.set(id, statement);
  }
  for (const { scope, actions } of [...statements.values()].sort((a, b) => scopeId(a.scope).localeCompare(scopeId(b.scope)))) {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: actions.sort().map((a) => `dynamodb:${a}`),
        resources: [scope.index === undefined ? table.tableArn : `${table.tableArn}/index/${scope.index}`],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': scope.keys },
          ...(scope.attributes
            ? {
                'ForAllValues:StringEquals': { 'dynamodb:Attributes': scope.attributes },
                // AWS's pattern for an attribute limit: no request may return the whole item (unless it may read it back).
                ...(scope.readBack ? {} : { StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE', 'UPDATED_OLD', 'UPDATED_NEW'] } }),
              }
            : {}),
        },
      }),
    );
  }
}

/**
 * Key builders for every item type of the single table (docs/architecture.md lists them).
 * Partition key prefixes also scope IAM: read-only functions may update only ACCT# and RL# counters.
 * The balance shards (BAL#) and the ledger entries (LEDGER#) have their own prefixes: never a key per account.
 */
export const keys = {
  account: (accountId: string) => ({ PK: `ACCT#${accountId}`, SK: 'ACCOUNT' }),
  /** An account's entry in the index of accounts (./account-index.ts): apart from the account item, which every call updates. */
  accountIndexEntry: (accountId: string) => ({ PK: `ACCTIX#${accountId}`, SK: 'ACCTIX' }),
  /** Balance shard k of an account (shared/domain/ledger-shards.ts): each under its own partition key. */
  balanceShard: (accountId: string, shard: number) => ({ PK: `BAL#${accountId}#${shard}`, SK: 'BALANCE' }),
  /** The partition of the ledger entries of balance shard k (sort key: ISO time and entry id). */
  ledgerPartition: (accountId: string, shard: number) => `LEDGER#${accountId}#${shard}`,
  ledgerEntry: (accountId: string, shard: number, at: string, entryId: string) => ({ PK: `LEDGER#${accountId}#${shard}`, SK: `${at}#${entryId}` }),
  customer: (accountId: string, customerId: number) => ({ PK: `ACCT#${accountId}`, SK: `CUSTOMER#${String(customerId).padStart(16, '0')}` }),
  customerPrefix: 'CUSTOMER#',
  /** Reserves a numeric customer id service-wide (the creation's conditional put). */
  customerIdReservation: (customerId: number) => ({ PK: `CUSTID#${customerId}`, SK: 'CUSTID' }),
  invoice: (reference: string) => ({ PK: `INV#${reference}`, SK: 'INVOICE' }),
  /** Reserves a numeric invoice id service-wide and points to the invoice's reference. */
  invoiceIdReservation: (invoiceId: number) => ({ PK: `INVID#${invoiceId}`, SK: 'INVID' }),
  /** GSI1 partition of an account's invoices (sort key: the zero-padded, time-ordered invoice id). */
  invoiceListPartition: (accountId: string) => `ACCT#${accountId}#INVOICES`,
  /** A hosted checkout, by its reference (CHK-…); the order it becomes is recorded in it. */
  checkout: (reference: string) => ({ PK: `CHK#${reference}`, SK: 'CHECKOUT' }),
  /** Reserves a merchant's tx_ref within its account and points to the checkout's reference. */
  checkoutTxRef: (accountId: string, txRef: string) => ({ PK: `CHKTX#${accountId}#${txRef}`, SK: 'CHKTX' }),
  /** A card charge's attempt (shared/adapters/dynamo/card-attempts.ts), under its Idempotency-Key or its keyed fingerprint. */
  cardAttempt: (attemptKey: string) => ({ PK: `CARDATT#${attemptKey}`, SK: 'CARDATT' }),
  /** Card testing caps (shared/domain/card-fingerprint.ts): the decline log of one card fingerprint, and of one merchant. */
  cardDeclines: (fingerprint: string) => ({ PK: `DECL#CARD#${fingerprint}`, SK: 'DECL' }),
  merchantDeclines: (accountId: string) => ({ PK: `DECL#ACCT#${accountId}`, SK: 'DECL' }),
  /** The card attempts of one hosted checkout (its whole life): the per-checkout cap's slot log (./attempt-slots.ts). */
  checkoutDeclines: (reference: string) => ({ PK: `DECL#CHK#${reference}`, SK: 'DECL' }),
  /** One sale under a tx_ref of an account without signed forms (several may share a tx_ref: shared/checkout/record.ts saleKey). */
  checkoutSale: (accountId: string, txRef: string, saleKey: string) => ({ PK: `CHKTX#${accountId}#${txRef}`, SK: `SALE#${saleKey}` }),
  withdraw: (reference: string) => ({ PK: `WD#${reference}`, SK: 'WITHDRAW' }),
  /** GSI1 partition of an account's withdrawals (sort key: creation time and reference). */
  withdrawListPartition: (accountId: string) => `ACCT#${accountId}#WITHDRAWALS`,
  event: (eventId: string) => ({ PK: `EVT#${eventId}`, SK: 'EVT' }),
  /** GSI1 partition of an account's events (sort key: creation time and event id): the events API (issue 29). */
  eventListPartition: (accountId: string) => `ACCT#${accountId}#EVENTS`,
  delivery: (eventId: string) => ({ PK: `DLV#${eventId}`, SK: 'DELIVERY' }),
  /** GSI1 partition of an account's webhook deliveries (sort key: creation time and event id). */
  deliveryListPartition: (accountId: string) => `ACCT#${accountId}#DELIVERIES`,
  cep: (cep: string) => ({ PK: `CEP#${cep}`, SK: 'CEP' }),
  /** Where the Pix sweep's reading of a PSP's statement of Pix received stands (./pix-statement-cursor.ts). */
  pixStatement: (provider: string) => ({ PK: `PIXSTMT#${provider}`, SK: 'PIXSTMT' }),
  publicKey: (publicKey: string) => ({ PK: `PUBKEY#${publicKey}`, SK: 'PUBKEY' }),
  ipCounter: (limitClass: string, ip: string, window: number) => ({ PK: `RL#${limitClass}#${ip}#${window}`, SK: 'RL' }),
  idempotency: (accountId: string, key: string) => ({ PK: `IDEM#${accountId}#${key}`, SK: 'IDEM' }),
  /** A merchant panel invitation, by the SHA-256 of its link's token (the token is never stored). */
  panelInvite: (tokenHash: string) => ({ PK: `PINV#${tokenHash}`, SK: 'PINV' }),
  /** An account's live invite for an e-mail (issue 43): the account's invites in one partition, one per e-mail (a new one replaces it). */
  panelInviteEntry: (accountId: string, email: string) => ({ PK: `PINVS#${accountId}`, SK: email }),
  /** A password reset link (./panel-resets.ts). */
  panelReset: (tokenHash: string) => ({ PK: `PRESET#${tokenHash}`, SK: 'PRESET' }),
  /** A queued mail message (./mail-outbox.ts). */
  mail: (mailId: string) => ({ PK: `MAIL#${mailId}`, SK: 'MAIL' }),
  /** An address the panel no longer mails (./mail-suppressions.ts), by the SHA-256 (hex) of the normalized e-mail: never the e-mail. */
  mailSuppression: (emailHash: string) => ({ PK: `MAILSUP#${emailHash}`, SK: 'MAILSUP' }),
  /** A merchant panel person, by normalized e-mail: the sign-in name, one person per e-mail service-wide. */
  panelPerson: (email: string) => ({ PK: `PUSER#${email}`, SK: 'PUSER' }),
  /** An account's panel team: how many owners it has (the last owner is never removed or demoted, whatever runs at once). */
  panelTeam: (accountId: string) => ({ PK: `PTEAM#${accountId}`, SK: 'PTEAM' }),
  /** GSI1 partition of an account's panel people (the team page), by e-mail. */
  peopleListPartition: (accountId: string) => `ACCT#${accountId}#PEOPLE`,
  /** A merchant panel session, by the SHA-256 of its id (the id is never stored). */
  panelSession: (sessionHash: string) => ({ PK: `PSESS#${sessionHash}`, SK: 'PSESS' }),
  /** GSI1 partition of a panel person's signed-in sessions (their security page). */
  sessionListPartition: (personId: string) => `PSESSLIST#${personId}`,
  /** A panel limit's slot log (./attempt-slots.ts): sign-in per e-mail and address, step-up per session, reset mails, invites. */
  panelLimit: (kind: string, id: string) => ({ PK: `PLIM#${kind}#${id}`, SK: 'PLIM' }),
  /** An entry of an account's panel audit log (sort key: ISO time and entry id). */
  panelAudit: (accountId: string, at: string, entryId: string) => ({ PK: `PAUDIT#${accountId}`, SK: `${at}#${entryId}` }),
} as const;

export type ItemKey = { PK: string; SK: string };

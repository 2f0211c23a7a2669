/**
 * Key builders for every item type of the single table (docs/architecture.md lists them).
 * Partition key prefixes also scope IAM: read-only functions may update only ACCT# and RL# counters.
 */
export const keys = {
  account: (accountId: string) => ({ PK: `ACCT#${accountId}`, SK: 'ACCOUNT' }),
  balance: (accountId: string) => ({ PK: `ACCT#${accountId}`, SK: 'BALANCE' }),
  ledgerEntry: (accountId: string, at: string, entryId: string) => ({ PK: `ACCT#${accountId}`, SK: `LEDGER#${at}#${entryId}` }),
  customer: (accountId: string, customerId: number) => ({ PK: `ACCT#${accountId}`, SK: `CUSTOMER#${String(customerId).padStart(16, '0')}` }),
  customerPrefix: 'CUSTOMER#',
  /** Reserves a numeric customer id service-wide (the creation's conditional put). */
  customerIdReservation: (customerId: number) => ({ PK: `CUSTID#${customerId}`, SK: 'CUSTID' }),
  cep: (cep: string) => ({ PK: `CEP#${cep}`, SK: 'CEP' }),
  publicKey: (publicKey: string) => ({ PK: `PUBKEY#${publicKey}`, SK: 'PUBKEY' }),
  ipCounter: (limitClass: string, ip: string, window: number) => ({ PK: `RL#${limitClass}#${ip}#${window}`, SK: 'RL' }),
  idempotency: (accountId: string, key: string) => ({ PK: `IDEM#${accountId}#${key}`, SK: 'IDEM' }),
} as const;

export type ItemKey = { PK: string; SK: string };

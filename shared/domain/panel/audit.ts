/**
 * The account's audit log (issue 27): every panel action, who took it, when and from which address.
 * Entries are written once and never changed (their items are only ever Put under a fresh key).
 */
export type AuditEntry = {
  accountId: string;
  /** ISO time. */
  at: string;
  /** A unique id within the account's log (the time orders entries; the id breaks ties). */
  entryId: string;
  /** Who: the person's id and e-mail, or `operator`. */
  personId: string;
  email: string;
  /** What, as a stable code (`panel.signed_in`, `keys.rotated`…), and a short detail without secrets. */
  action: string;
  detail?: string;
  /** The client's address. */
  ip: string;
};

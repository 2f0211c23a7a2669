import type { PanelInvite } from '../domain/panel/invite';

/** The merchant panel's invitations (issue 27): written once, read by the token's hash. */
export interface PanelInvites {
  /** Stores a new invite; a token hash already stored (never, with 256-bit tokens) is an error. */
  create(invite: PanelInvite): Promise<void>;
  get(tokenHash: string): Promise<PanelInvite | undefined>;
}

/** Whether an e-mail already signs in to the panel (an e-mail is one person, service-wide). */
export interface PanelEmails {
  taken(email: string): Promise<boolean>;
}

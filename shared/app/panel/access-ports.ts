import type { AttemptSlots } from '../../ports/attempt-slots';
import type { PanelAccountNames, PanelAuditLog, PanelInvites, PanelPeople, PanelSessions } from '../../ports/panel';

/** What the panel's access use cases need: the stores, and the crypto that only adapters hold (randomness included). */
export type PanelAccessPorts = {
  invites: PanelInvites;
  people: PanelPeople;
  sessions: PanelSessions;
  /** The slot logs of the panel's limits (shared/domain/panel/sign-in-limits.ts). */
  attempts: AttemptSlots;
  audit: PanelAuditLog;
  passwords: {
    hash: (password: string) => Promise<string>;
    verify: (password: string, stored: string) => Promise<boolean>;
    /** The same work as a verification, for an unknown e-mail. */
    burn: (password: string) => Promise<void>;
  };
  totp: {
    newSecret: () => string;
    /** The step the code matches around `now`, or undefined. */
    match: (secret: string, code: string, now: Date) => number | undefined;
    uri: (secret: string, email: string) => string;
  };
  /** The authenticator secret sealed for storage (or a form), bound to what it belongs to; unseal fails on anything else. */
  sealing: { seal: (secret: string, boundTo: string) => string; unseal: (sealed: string, boundTo: string) => string | undefined };
  /** A new 256-bit token and its SHA-256 (sessions), and the hash of a given one (invite links, cookies). */
  tokens: { newToken: () => { token: string; tokenHash: string }; hash: (token: string) => string };
  newId: (prefix: string) => string;
};

/** The access ports without the password hashing: what a signed-in page and a step-up need (the money pages' functions bundle no scrypt). */
export type PanelSessionPorts = Omit<PanelAccessPorts, 'passwords'>;

/** What a use case that sets a password needs (enrollment, a new password, a reset): the access ports and the accounts' names the policy reads. */
export type PasswordSettingPorts = PanelAccessPorts & { accountNames: PanelAccountNames };

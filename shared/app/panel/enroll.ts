import type { InviteAnswerView } from './views';
import type { PasswordSettingPorts } from './access-ports';
import { inviteBacked, inviteUsable, type PanelInvite } from '../../domain/panel/invite';
import { ROLE_LABELS } from '../../domain/panel/roles';
import { passwordProblems } from '../../domain/panel/password-policy';
import type { PanelPerson } from '../../domain/panel/person';
import { ConflictError, NotFoundError, ValidationError } from '../../domain/errors';

/** An invite link that does not lead anywhere: unknown, used or expired (one answer for all three). */
const INVITE_GONE = 'Este convite não vale mais: ele já foi usado ou expirou. Peça um novo convite.';

/**
 * The invite of a link while it still leads somewhere: usable (not used, replaced, revoked or expired)
 * and still backed by the person who sent it (issue 43: removed or lowered, their invites are over).
 * The enrollment's transaction checks the inviter again, atomically.
 */
async function liveInvite(ports: Pick<PasswordSettingPorts, 'invites' | 'people'>, tokenHash: string, now: Date): Promise<PanelInvite> {
  const invite = await ports.invites.get(tokenHash);
  if (!inviteUsable(invite, now)) throw new NotFoundError(INVITE_GONE);
  const inviter = invite.inviterEmail === undefined ? undefined : await ports.people.byEmail(invite.inviterEmail);
  if (!inviteBacked(invite, inviter)) throw new NotFoundError(INVITE_GONE);
  return invite;
}

/**
 * The enrollment page of an invite: who is invited and a new authenticator secret to scan. The secret
 * travels in the form sealed to this invite (nothing is stored before the person accepts), so each
 * page load offers a new one and only a code of the one shown is accepted.
 */
/** The enrollment page's ports: the access ports and the QR encoder of the authenticator's URI. */
export type EnrollPorts = PasswordSettingPorts & { qrDataUri: (uri: string) => string };

export async function enrollmentPage(ports: EnrollPorts, input: { token: string; now: Date; sealedSecret?: string }): Promise<InviteAnswerView> {
  const tokenHash = ports.tokens.hash(input.token);
  const invite = await liveInvite(ports, tokenHash, input.now);
  // The page again after a refused form keeps the secret the person may have scanned (only one this invite's page sealed).
  const kept = input.sealedSecret === undefined ? undefined : ports.sealing.unseal(input.sealedSecret, `enroll:${tokenHash}`);
  const secret = kept ?? ports.totp.newSecret();
  const uri = ports.totp.uri(secret, invite.email);
  return {
    email: invite.email,
    role: invite.role,
    roleLabel: ROLE_LABELS[invite.role],
    secret,
    otpauthUri: uri,
    qrDataUri: ports.qrDataUri(uri),
    sealedSecret: ports.sealing.seal(secret, `enroll:${tokenHash}`),
  };
}

export type AcceptInviteInput = {
  token: string;
  password: string;
  confirmation: string;
  code: string;
  sealedSecret: string;
  ip: string;
  now: Date;
};

/**
 * Accepts an invite: the password by the policy, the authenticator proven by a code of the secret the
 * page showed, then in one transaction the invite used, the person created and the audit entry. The
 * enrollment's code step is recorded as used, so it cannot sign in afterwards.
 */
export async function acceptInvite(ports: PasswordSettingPorts, input: AcceptInviteInput): Promise<{ email: string }> {
  const tokenHash = ports.tokens.hash(input.token);
  const invite = await liveInvite(ports, tokenHash, input.now);
  const fields: Record<string, string[]> = {};
  const problems = await passwordProblems(input.password, { email: invite.email, accountName: await ports.accountNames.nameOf(invite.accountId) });
  if (problems.length > 0) fields.password = problems;
  else if (input.password !== input.confirmation) fields.confirmation = ['As senhas não são iguais.'];
  const secret = ports.sealing.unseal(input.sealedSecret, `enroll:${tokenHash}`);
  const step = secret === undefined ? undefined : ports.totp.match(secret, input.code, input.now);
  if (secret === undefined) fields.code = ['Recarregue a página e leia o código QR de novo.'];
  else if (step === undefined) fields.code = ['Código incorreto. Confira o relógio do celular e digite o código atual do aplicativo.'];
  if (Object.keys(fields).length > 0 || secret === undefined || step === undefined) throw new ValidationError(fields);
  const at = input.now.toISOString();
  const person: PanelPerson = {
    personId: ports.newId('per'),
    accountId: invite.accountId,
    email: invite.email,
    role: invite.role,
    passwordHash: await ports.passwords.hash(input.password),
    totpSecretSealed: ports.sealing.seal(secret, `person:${invite.email}`),
    totpLastStep: step,
    createdAt: at,
    passwordChangedAt: at,
  };
  const audit = {
    accountId: invite.accountId,
    at,
    entryId: ports.newId('aud'),
    personId: person.personId,
    email: person.email,
    action: 'panel.enrolled',
    detail: `papel ${invite.role}, convidado por ${invite.invitedBy}`,
    ip: input.ip,
  };
  const outcome = await ports.people.enroll(invite, person, audit, input.now);
  if (outcome === 'invite_gone') throw new NotFoundError(INVITE_GONE);
  if (outcome === 'email_taken') throw new ConflictError('Este e-mail já entra no painel.', 'panel_email_taken');
  return { email: person.email };
}

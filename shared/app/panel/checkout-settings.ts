import type { PanelAccessPorts } from './access-ports';
import { actingPerson, auditedChange, stepUp } from './acting';
import { type CheckoutSigning, nextCheckoutSigning } from '../../domain/checkout-signing';
import type { Change, CheckoutSigningSet } from '../../domain/changes';
import { mayAct } from '../../domain/panel/roles';
import type { PanelSession } from '../../domain/panel/session';

export type PanelCheckoutPorts = PanelAccessPorts & {
  /** The account's signing settings as stored (not required, no secret: the defaults). */
  checkoutSigningOf: (accountId: string) => Promise<CheckoutSigning>;
  /** The secret of a version (derived, never stored: shared/domain/checkout-signing.ts). */
  signingSecret: (accountId: string, version: number) => Promise<string>;
};

/** What the hosted checkout page shows: whether forms must be signed, whether a secret exists, whether the person may change them. */
export async function checkoutSettingsView(ports: PanelCheckoutPorts, session: PanelSession) {
  const person = await actingPerson(ports, session, 'read');
  const signing = await ports.checkoutSigningOf(session.accountId);
  return { required: signing.required, hasSecret: signing.version > 0, mayManage: mayAct(person.role, 'checkout.manage') };
}

/**
 * Signed checkout forms on or off, or a new secret (`require` undefined: as it is), from the panel: the role, a fresh code (step-up),
 * then the operator's `account checkout-signing` rule (nextCheckoutSigning) as a change committed with
 * its audit entry. A version issued here is the only moment its secret is shown; the previous secret
 * stops at once. Turning signing on with a secret already issued keeps it (nothing shown).
 */
export async function setCheckoutSigningInPanel(
  ports: PanelCheckoutPorts,
  input: { session: PanelSession; require?: boolean; rotate: boolean; code: string; ip: string; now: Date },
): Promise<{ answer: { required: boolean; hasSecret: boolean; secret?: string }; changes: Change[] }> {
  const person = await actingPerson(ports, input.session, 'checkout.manage');
  await stepUp(ports, person, input);
  const accountId = person.accountId;
  const current = await ports.checkoutSigningOf(accountId);
  const rule = { require: input.require ?? current.required, rotate: input.rotate };
  const change: CheckoutSigningSet = { kind: 'checkout_signing.set', accountId, ...nextCheckoutSigning(current, rule) };
  const secret = change.issued ? await ports.signingSecret(accountId, change.version) : undefined;
  const detail = [
    `formulários assinados: ${change.required ? 'exigidos' : 'opcionais'}`,
    ...(change.issued ? ['novo segredo de assinatura; o anterior parou na hora'] : []),
  ].join('; ');
  const action = change.issued ? 'checkout.signing_secret_rotated' : 'checkout.signing_set';
  return {
    answer: { required: change.required, hasSecret: change.version > 0, ...(secret !== undefined ? { secret } : {}) },
    changes: [change, auditedChange(ports, person, action, detail, input.ip, input.now)],
  };
}

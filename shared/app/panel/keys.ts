import type { PanelAccessPorts } from './access-ports';
import { actingPerson, stepUp } from './acting';
import { mayAct } from '../../domain/panel/roles';
import type { PanelSession } from '../../domain/panel/session';
import type { AccountKeys } from '../../ports/api-keys';

export type PanelKeysPorts = PanelAccessPorts & { keys: AccountKeys };

/** The API keys page: the public key, and whether the person may generate new keys. */
export async function keysView(ports: PanelKeysPorts, session: PanelSession): Promise<{ publicKey: string; mayRotate: boolean }> {
  const person = await actingPerson(ports, session, 'read');
  return { publicKey: (await ports.keys.publicKey(session.accountId)) ?? '', mayRotate: mayAct(person.role, 'keys.rotate') };
}

/**
 * New API keys from the panel (spec 2.8, 5.6): the role, a fresh code (step-up), then the keys rotated
 * with the audit entry in one transaction: the old keys and every token issued under them stop at
 * once. The secret key is shown once, here, and stored only as its hash.
 */
export async function rotateKeysInPanel(ports: PanelKeysPorts, input: { session: PanelSession; code: string; ip: string; now: Date }) {
  const person = await actingPerson(ports, input.session, 'keys.rotate');
  await stepUp(ports, person, input);
  return ports.keys.rotate(person.accountId, {
    accountId: person.accountId,
    at: input.now.toISOString(),
    entryId: ports.newId('aud'),
    personId: person.personId,
    email: person.email,
    action: 'keys.rotated',
    detail: 'novas chaves de API; as anteriores e seus tokens pararam na hora',
    ip: input.ip,
  });
}

/** The account's audit log, newest first (owners and admins). */
export async function auditView(ports: PanelAccessPorts, session: PanelSession) {
  await actingPerson(ports, session, 'audit.read');
  return ports.audit.latest(session.accountId, 50);
}

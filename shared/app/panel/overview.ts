import { ROLE_LABELS } from '../../domain/panel/roles';
import { UnauthorizedError } from '../../errors';
import { sessionOfPerson } from '../../domain/panel/person';
import { SESSION_ENDED } from './acting';
import type { PanelSession } from '../../domain/panel/session';
import type { LedgerReader } from '../../ports/ledger';
import type { PanelPeople } from '../../ports/panel';

export type OverviewPorts = {
  ledger: Pick<LedgerReader, 'balance'>;
  accountName: (accountId: string) => Promise<string | undefined>;
  people: Pick<PanelPeople, 'byEmail'>;
};

/** The overview of the session's account: its balance as GET /api/balance reads it (the same ledger port), its name, the person's role. */
export async function panelOverview(ports: OverviewPorts, session: PanelSession) {
  const [balance, name, person] = await Promise.all([
    ports.ledger.balance(session.accountId),
    ports.accountName(session.accountId),
    ports.people.byEmail(session.email),
  ]);
  // A person removed from the team is signed out everywhere at once, as actingPerson says.
  if (!sessionOfPerson(person, session)) throw new UnauthorizedError(SESSION_ENDED);
  return {
    email: session.email,
    roleLabel: ROLE_LABELS[person.role],
    accountName: name ?? session.accountId,
    availableCents: balance.availableCents,
    reservedCents: balance.reservedCents,
  };
}

import { ROLE_LABELS } from '../../domain/panel/roles';
import { UnauthorizedError } from '../../domain/errors';
import { sessionOfPerson } from '../../domain/panel/person';
import { SESSION_ENDED } from './acting';
import type { PanelSession } from '../../domain/panel/session';
import type { LedgerReader } from '../../ports/ledger';
import { brazilDate, brazilDayBounds } from '../../domain/brazil-dates';
import { OVERVIEW_PAYMENTS_READ, summarizePayments } from '../../domain/panel/payments-summary';
import type { PanelPeople } from '../../ports/panel';

export type OverviewPorts = {
  ledger: Pick<LedgerReader, 'balance' | 'statement'>;
  accountName: (accountId: string) => Promise<string | undefined>;
  people: Pick<PanelPeople, 'byEmail'>;
};

/**
 * The overview of the session's account: its balance as GET /api/balance reads it (the same ledger
 * port), today's and this month's payments per method (the month's payment entries, as GET
 * /api/balance/transactions?type=payment reads them, at most OVERVIEW_PAYMENTS_READ), its name, the
 * person's role. Days and months are Brasília's.
 */
export async function panelOverview(ports: OverviewPorts, session: PanelSession, now: Date) {
  const today = brazilDate(now);
  const monthStart = `${today.slice(0, 8)}01`;
  const [balance, name, person, payments] = await Promise.all([
    ports.ledger.balance(session.accountId),
    ports.accountName(session.accountId),
    ports.people.byEmail(session.email),
    ports.ledger.statement(session.accountId, { type: 'payment', start: monthStart, end: today, page: 1, limit: OVERVIEW_PAYMENTS_READ + 1 }),
  ]);
  // A person removed from the team is signed out everywhere at once, as actingPerson says.
  if (!sessionOfPerson(person, session)) throw new UnauthorizedError(SESSION_ENDED);
  return {
    email: session.email,
    roleLabel: ROLE_LABELS[person.role],
    accountName: name ?? session.accountId,
    availableCents: balance.availableCents,
    reservedCents: balance.reservedCents,
    payments: summarizePayments(payments, brazilDayBounds(today).startMs),
  };
}

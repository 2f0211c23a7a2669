import type { PanelSessionPorts } from './access-ports';
import { actingPerson } from './acting';
import type { LedgerEntry } from '../../domain/ledger';
import { mayAct } from '../../domain/panel/roles';
import type { PanelSession } from '../../domain/panel/session';
import { DomainError } from '../../domain/errors';
import type { LedgerReader, StatementQuery } from '../../ports/ledger';

/** The merchant panel's statement (issue 27): GET /api/balance/transactions' reader, its filters, and a CSV export of the filtered range. */
export type PanelStatementPorts = PanelSessionPorts & { ledger: Pick<LedgerReader, 'statement'> };

/** The most entries one CSV export holds; a range with more is refused (narrow the dates or the type). */
export const CSV_EXPORT_MAX = 5_000;

export async function statementView(
  ports: PanelStatementPorts,
  session: PanelSession,
  query: StatementQuery,
): Promise<{ entries: LedgerEntry[]; mayExport: boolean }> {
  const person = await actingPerson(ports, session, 'read');
  const entries = await ports.ledger.statement(session.accountId, query);
  return { entries, mayExport: mayAct(person.role, 'statement.export') };
}

/**
 * Every entry of the filtered range, newest first, for the CSV export (owners, admins and finance):
 * at most CSV_EXPORT_MAX, else a 422 asking for a narrower range (never a silently cut file).
 */
export async function statementExport(
  ports: PanelStatementPorts,
  session: PanelSession,
  filters: Omit<StatementQuery, 'page' | 'limit'>,
): Promise<LedgerEntry[]> {
  await actingPerson(ports, session, 'statement.export');
  const entries = await ports.ledger.statement(session.accountId, { ...filters, page: 1, limit: CSV_EXPORT_MAX + 1 });
  if (entries.length > CSV_EXPORT_MAX) {
    throw new DomainError(
      'invalid',
      `O período tem mais de ${CSV_EXPORT_MAX.toLocaleString('pt-BR')} lançamentos: escolha datas mais próximas ou um tipo.`,
      'export_too_large',
    );
  }
  return entries;
}

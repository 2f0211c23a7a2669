import { formatCents } from '../../domain/money';
import type { LedgerEntry } from '../../domain/ledger';

/**
 * The statement's CSV export (issue 27): RFC 4180 (comma, CRLF, quoted where needed), UTF-8, the
 * API's values (GET /api/balance/transactions: dot decimals, UTC ISO times), one row per entry, newest
 * first. A text cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is prefixed
 * with an apostrophe (OWASP's CSV injection advice); the amounts are numbers and keep their sign.
 */
const HEADER = ['id', 'created_at', 'type', 'amount', 'reserved', 'reference', 'description'];

function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function textCell(value: string): string {
  return cell(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

export function statementCsv(entries: readonly LedgerEntry[]): string {
  const rows = entries.map((e) =>
    [
      cell(e.id),
      cell(e.createdAt),
      cell(e.type),
      formatCents(e.availableCents),
      formatCents(e.reservedCents),
      textCell(e.reference),
      textCell(e.description),
    ].join(','),
  );
  return `${[HEADER.join(','), ...rows].join('\r\n')}\r\n`;
}

import type { Invoice } from './invoice';

/**
 * The PSP's statement of Pix received (API Pix GET /pix): every payment the PSP credited to the
 * gateway's key in a window, whatever became of its callback (issue 43). The Pix sweep reads it in
 * passes, one window after another, and the operator's `provider reconcile --from --to` reads any
 * window: each payment whose charge records no payment is read back and recorded, so a payment the
 * provider holds never stays without its ledger entry.
 */

/** One Pix the PSP received: its end-to-end id, the charge it paid (txid, when it paid one), amount and time. */
export type ReceivedPix = { endToEndId: string; txid?: string; amountCents: number; paidAt: Date };

/** One page of the statement (pages count from 0, as API Pix's paginaAtual does). */
export type ReceivedPixPage = { payments: ReceivedPix[]; pages: number };

/** A window of the statement: payments whose time is in [from, to]. */
export type StatementWindow = { from: Date; to: Date };

/** Where the sweep's reading of the statement stands: the window of the pass under way and its next page. */
export type StatementCursor = { from: string; to: string; page: number };

/** How far back the first pass reaches (no cursor yet: a new deployment, or a new PSP). */
export const FIRST_PASS_LOOKBACK_MS = 24 * 60 * 60 * 1000;
/** The longest window one pass reads (PSPs bound the period a GET /pix may ask for). */
export const MAX_PASS_MS = 24 * 60 * 60 * 1000;

/** A pass from `fromMs` up to `until`, at most MAX_PASS_MS long, from its first page. */
function passFrom(fromMs: number, until: Date): StatementCursor {
  const to = Math.max(fromMs, Math.min(until.getTime(), fromMs + MAX_PASS_MS));
  return { from: new Date(fromMs).toISOString(), to: new Date(to).toISOString(), page: 0 };
}

/**
 * The cursor a run reads from: none stored, a first pass over the day before `until`; a pass whose first
 * page is still unread, that pass stretched up to `until` (nothing of it was read: its window may still
 * grow); a pass under way, as stored (its pages stay the ones already counted).
 */
export function startingCursor(stored: StatementCursor | undefined, until: Date): StatementCursor {
  if (!stored) return passFrom(until.getTime() - FIRST_PASS_LOOKBACK_MS, until);
  return stored.page === 0 ? passFrom(Date.parse(stored.from), until) : stored;
}

/**
 * Where the cursor goes once `cursor`'s page is read (`pages`: how many the window has): its next page,
 * or a new pass from the end of this one up to `until`; `done` when that pass is empty (nothing left to
 * read until time moves on). The windows of consecutive passes share their bound instant: a payment at
 * that instant is read twice, which records nothing twice.
 */
export function nextCursor(cursor: StatementCursor, pages: number, until: Date): { cursor: StatementCursor; done: boolean } {
  if (cursor.page + 1 < pages) return { cursor: { ...cursor, page: cursor.page + 1 }, done: false };
  const next = passFrom(Date.parse(cursor.to), until);
  return { cursor: next, done: emptyWindow(next) };
}

/** Whether a cursor's window is empty (nothing to read until time moves on). */
export function emptyWindow(cursor: StatementCursor): boolean {
  return Date.parse(cursor.to) <= Date.parse(cursor.from);
}

/**
 * The amount of the Pix payment an invoice records, when it records one (recordsPixPayment), or
 * undefined when that amount is not known (records older than the paid amount).
 */
export function recordedPixCents(invoice: Pick<Invoice, 'paidRail' | 'paidAmountCents' | 'otherRailPayment'>): number | undefined {
  if (invoice.otherRailPayment?.rail === 'pix') return invoice.otherRailPayment.amountCents;
  return invoice.paidRail === 'pix' ? invoice.paidAmountCents : undefined;
}

/**
 * Whether an invoice records a payment made by Pix: the one that paid it (its paid rail), the second one
 * of a BolePix held apart as a refund due, or (records older than the paid rail) a paid Pix invoice.
 * Each is written in the same transaction as its ledger entry: recorded here means in the ledger.
 */
export function recordsPixPayment(invoice: Pick<Invoice, 'method' | 'status' | 'paidRail' | 'otherRailPayment'>): boolean {
  if (invoice.paidRail === 'pix' || invoice.otherRailPayment?.rail === 'pix') return true;
  return invoice.paidRail === undefined && invoice.method === 'pix' && (invoice.status === 'PAID' || invoice.status === 'REFUNDED');
}

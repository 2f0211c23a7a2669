import { describe, expect, it } from 'vitest';
import {
  emptyWindow,
  FIRST_PASS_LOOKBACK_MS,
  MAX_PASS_MS,
  nextCursor,
  recordsPixPayment,
  type StatementCursor,
  startingCursor,
} from '../../../shared/domain/pix-statement';
import type { Invoice } from '../../../shared/domain/invoice';
import { anInvoice } from '../../support/records';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const until = new Date('2026-11-27T12:30:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();
const U = until.getTime();

describe('the statement cursor: where a run reads from', () => {
  it('the bounds are a day', () => {
    expect(FIRST_PASS_LOOKBACK_MS).toBe(DAY);
    expect(MAX_PASS_MS).toBe(DAY);
  });

  it('no cursor stored: a first pass over the day before `until`, from its first page', () => {
    expect(startingCursor(undefined, until)).toEqual({ from: '2026-11-26T12:30:00.000Z', to: '2026-11-27T12:30:00.000Z', page: 0 });
  });

  it('a stored cursor whose first page is unread is stretched up to `until` (its start kept)', () => {
    const stored: StatementCursor = { from: at(U - 5 * HOUR), to: at(U - 4 * HOUR), page: 0 };
    expect(startingCursor(stored, until)).toEqual({ from: at(U - 5 * HOUR), to: until.toISOString(), page: 0 });
    // The empty pass a finished run leaves (from = to) grows the same way once time moved on.
    const done: StatementCursor = { from: at(U - HOUR), to: at(U - HOUR), page: 0 };
    expect(startingCursor(done, until)).toEqual({ from: at(U - HOUR), to: until.toISOString(), page: 0 });
  });

  it('a stretched page-0 cursor is never longer than MAX_PASS_MS', () => {
    const stored: StatementCursor = { from: at(U - 3 * DAY), to: at(U - 3 * DAY + HOUR), page: 0 };
    expect(startingCursor(stored, until)).toEqual({ from: at(U - 3 * DAY), to: at(U - 2 * DAY), page: 0 });
  });

  it('a page-0 cursor that starts after `until` gives an empty window (nothing read until time moves on)', () => {
    const ahead: StatementCursor = { from: at(U + HOUR), to: at(U + 2 * HOUR), page: 0 };
    const start = startingCursor(ahead, until);
    // Its `to` never goes back before its `from`: the next pass still starts there, never earlier.
    expect(start).toEqual({ from: at(U + HOUR), to: at(U + HOUR), page: 0 });
    expect(emptyWindow(start)).toBe(true);
  });

  it('a cursor mid-pass is kept as stored (its window is not stretched: its pages stay the ones counted)', () => {
    const stored: StatementCursor = { from: at(U - 5 * HOUR), to: at(U - 4 * HOUR), page: 2 };
    expect(startingCursor(stored, until)).toEqual({ from: at(U - 5 * HOUR), to: at(U - 4 * HOUR), page: 2 });
  });
});

describe('the statement cursor: where it goes once a page is read', () => {
  const pass: StatementCursor = { from: at(U - 6 * HOUR), to: at(U - 3 * HOUR), page: 0 };

  it('to the next page of the same window while pages are left', () => {
    expect(nextCursor(pass, 3, until)).toEqual({ cursor: { ...pass, page: 1 }, done: false });
    expect(nextCursor({ ...pass, page: 1 }, 3, until)).toEqual({ cursor: { ...pass, page: 2 }, done: false });
  });

  it('after the last page, a new pass from the old `to` up to `until`', () => {
    expect(nextCursor({ ...pass, page: 2 }, 3, until)).toEqual({ cursor: { from: pass.to, to: until.toISOString(), page: 0 }, done: false });
    // A window with no Pix (0 pages, or 1 empty page) ends its pass as well.
    expect(nextCursor(pass, 0, until)).toEqual({ cursor: { from: pass.to, to: until.toISOString(), page: 0 }, done: false });
    expect(nextCursor(pass, 1, until)).toEqual({ cursor: { from: pass.to, to: until.toISOString(), page: 0 }, done: false });
  });

  it('a page past the count the PSP now gives also ends the pass', () => {
    expect(nextCursor({ ...pass, page: 4 }, 2, until).cursor).toEqual({ from: pass.to, to: until.toISOString(), page: 0 });
  });

  it('done when the pass ended at `until`: the new window is empty', () => {
    const last: StatementCursor = { from: at(U - HOUR), to: until.toISOString(), page: 0 };
    const next = nextCursor(last, 1, until);
    expect(next).toEqual({ cursor: { from: until.toISOString(), to: until.toISOString(), page: 0 }, done: true });
    expect(emptyWindow(next.cursor)).toBe(true);
    // A pass that ended past `until` (the wait made longer) is done as well, and never moves back.
    const beyond = nextCursor({ from: at(U - HOUR), to: at(U + HOUR), page: 0 }, 1, until);
    expect(beyond).toEqual({ cursor: { from: at(U + HOUR), to: at(U + HOUR), page: 0 }, done: true });
    // Not done while the new pass has time in it.
    expect(nextCursor({ from: at(U - HOUR), to: at(U - 1), page: 0 }, 1, until).done).toBe(false);
  });

  it('after a week down, passes never longer than MAX_PASS_MS walk forward day by day, back to back, and reach `until`', () => {
    let cursor = startingCursor({ from: at(U - 7 * DAY), to: at(U - 7 * DAY), page: 0 }, until);
    const windows: StatementCursor[] = [];
    let done = false;
    for (let i = 0; i < 20 && !done; i += 1) {
      windows.push(cursor);
      const next = nextCursor(cursor, 1, until);
      cursor = next.cursor;
      done = next.done;
    }
    expect(done).toBe(true);
    expect(windows).toHaveLength(7);
    windows.forEach((w, i) => {
      expect(Date.parse(w.to) - Date.parse(w.from), `pass ${i}`).toBe(DAY);
      expect(w.from, `pass ${i}`).toBe(at(U - (7 - i) * DAY));
      expect(w.page).toBe(0);
    });
    expect(windows.at(-1)?.to).toBe(until.toISOString());
    expect(cursor).toEqual({ from: until.toISOString(), to: until.toISOString(), page: 0 });
  });

  it('a pass never exceeds MAX_PASS_MS, even from an odd start', () => {
    const next = nextCursor({ from: at(U - 40 * HOUR), to: at(U - 30 * HOUR), page: 0 }, 1, until);
    expect(next.cursor).toEqual({ from: at(U - 30 * HOUR), to: at(U - 6 * HOUR), page: 0 });
    expect(next.done).toBe(false);
  });

  it('emptyWindow: only a window with no time in it', () => {
    expect(emptyWindow({ from: at(U), to: at(U), page: 0 })).toBe(true);
    expect(emptyWindow({ from: at(U + 1), to: at(U), page: 0 })).toBe(true);
    expect(emptyWindow({ from: at(U), to: at(U + 1), page: 0 })).toBe(false);
  });
});

describe('recordsPixPayment: whether an invoice records a payment made by Pix', () => {
  const pix = anInvoice({ provider: 'apipix' });
  const bolePix: Invoice = anInvoice({ method: 'boleto', boleto: { barcode: '9'.repeat(44), digitable: '9'.repeat(47), customerId: 7 }, provider: 'apipix' });
  const at2 = '2026-11-27T13:00:00.000Z';

  it('paid by Pix (its paid rail), refunded since included', () => {
    expect(recordsPixPayment({ ...pix, status: 'PAID', paidRail: 'pix' })).toBe(true);
    expect(recordsPixPayment({ ...bolePix, status: 'PAID', paidRail: 'pix' })).toBe(true);
    expect(recordsPixPayment({ ...bolePix, status: 'REFUNDED', paidRail: 'pix' })).toBe(true);
  });

  it('a BolePix paid by boleto whose Pix was held apart as a refund due (otherRailPayment pix)', () => {
    expect(recordsPixPayment({ ...bolePix, status: 'PAID', paidRail: 'boleto', otherRailPayment: { rail: 'pix', amountCents: 2_500, at: at2 } })).toBe(true);
  });

  it('not a BolePix paid by boleto with no Pix payment, nor one whose second payment was a boleto', () => {
    expect(recordsPixPayment({ ...bolePix, status: 'PAID', paidRail: 'boleto' })).toBe(false);
    expect(recordsPixPayment({ ...bolePix, status: 'PAID', paidRail: 'boleto', otherRailPayment: { rail: 'boleto', amountCents: 2_500, at: at2 } })).toBe(
      false,
    );
    // A boleto paid before paid rails were kept is no Pix payment.
    expect(recordsPixPayment({ ...bolePix, status: 'PAID' })).toBe(false);
  });

  it('a Pix invoice paid (or refunded) before paid rails were kept', () => {
    expect(recordsPixPayment({ ...pix, status: 'PAID' })).toBe(true);
    expect(recordsPixPayment({ ...pix, status: 'REFUNDED' })).toBe(true);
  });

  it('not a PENDING or CANCELED invoice', () => {
    expect(recordsPixPayment({ ...pix, status: 'PENDING' })).toBe(false);
    expect(recordsPixPayment({ ...pix, status: 'CANCELED' })).toBe(false);
    expect(recordsPixPayment({ ...bolePix, status: 'PENDING' })).toBe(false);
  });
});

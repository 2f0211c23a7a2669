import { describe, expect, it } from 'vitest';
import type { Change, OutboxEvent } from '../../../../shared/domain/changes';
import type { Invoice } from '../../../../shared/domain/invoice';
import type { PixChargeState } from '../../../../shared/domain/pix-outcomes';
import type { ReceivedPix, StatementCursor, StatementWindow } from '../../../../shared/domain/pix-statement';
import { MAX_PASS_MS } from '../../../../shared/domain/pix-statement';
import { reconcileStatement, statementPass } from '../../../../shared/app/invoices/pix-statement';
import { pixSweep, type PixSweepPorts } from '../../../../shared/app/invoices/pix-sweep';
import type { PixLookupPorts } from '../../../../shared/app/invoices/reconcile-pix-invoice';
import type { PixStatementCursors } from '../../../../shared/ports/pix-statement';
import { type LookingUpPixProvider, ProviderError, type StatementProvider } from '../../../../shared/ports/payment-provider';
import { anInvoice } from '../../../support/records';

const now = new Date('2026-11-27T13:00:00.000Z');
const until = new Date('2026-11-27T12:30:00.000Z');
const U = until.getTime();
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const paidAt = new Date('2026-11-27T12:10:00.000Z');

const txid = (n: number) => `STMT${String(n).padStart(28, '0')}`;

/** A Pix invoice of the API Pix PSP (charge `txid(n)`), total 25.00. */
const pixInvoice = (reference: string, n: number, over: Partial<Invoice> = {}): Invoice =>
  anInvoice({ reference, provider: 'apipix', awaitsPixLookup: true, pix: { txid: txid(n), location: 'loc', copy: '000201' }, ...over });

/** A BolePix (a boleto with its due-date Pix charge `txid(n)`), total 25.00. */
const bolePixInvoice = (reference: string, n: number, over: Partial<Invoice> = {}): Invoice =>
  pixInvoice(reference, n, {
    method: 'boleto',
    boleto: { barcode: '9'.repeat(44), digitable: '9'.repeat(47), customerId: 7 },
    awaitsPixLookup: undefined,
    ...over,
  });

const payment = (endToEndId: string, amountCents = 2_500) => ({ endToEndId, amountCents, paidAt, refundedCents: 0 });
const completed = (n: number, payments: PixChargeState['payments']): PixChargeState => ({ txid: txid(n), status: 'COMPLETED', amountCents: 2_500, payments });

/** A Pix received, as GET /pix lists it. */
const received = (endToEndId: string, n: number | undefined, amountCents = 2_500, at = paidAt): ReceivedPix => ({
  endToEndId,
  ...(n === undefined ? {} : { txid: txid(n) }),
  amountCents,
  paidAt: at,
});

/**
 * The gateway's side in memory: invoices by reference and txid, and a commit that applies an invoice's
 * move or a BolePix's other-rail payment only when the invoice is still as read (as the table's
 * conditional write does), recording every transaction committed.
 */
function ledgerWorld(invoices: Invoice[]) {
  const store = new Map(invoices.map((invoice) => [invoice.reference, invoice]));
  const commits: (readonly Change[])[] = [];
  const ports: PixLookupPorts = {
    invoices: {
      byReference: async (reference) => store.get(reference),
      byTxid: async (t) => [...store.values()].find((invoice) => invoice.pix?.txid === t),
    },
    checkouts: { get: async () => undefined },
    newEvent: (type, data): OutboxEvent => ({ id: `evt_${commits.length}`, type, created: 1, api_version: 'v', data }),
    commitMove: async (changes) => {
      const [first] = changes;
      if (first?.kind === 'invoice.moved') {
        const current = store.get(first.invoice.reference);
        if (current?.status !== first.invoice.status) return false;
        const paid = first.payment ? { paidRail: first.payment.rail, paidAmountCents: first.payment.amountCents, paidAt: first.at } : {};
        store.set(current.reference, { ...current, status: first.move.to, ...paid });
      } else if (first?.kind === 'invoice.other_rail_paid') {
        const current = store.get(first.invoice.reference);
        if (current?.status !== first.invoice.status || current.otherRailPayment) return false;
        store.set(current.reference, { ...current, otherRailPayment: { rail: first.rail, amountCents: first.amountCents, at: first.at } });
      } else {
        throw new Error(`unexpected commit ${first?.kind ?? 'empty'}`);
      }
      commits.push(changes);
      return true;
    },
    timeoutMs: 1_000,
  };
  return { ports, store, commits };
}

type Psp = {
  /** GET /cob/{txid}: a txid missing is unknown (undefined); `failing` txids fail. */
  cob?: Record<string, PixChargeState>;
  /** GET /cobv/{txid}. */
  cobv?: Record<string, PixChargeState>;
  failing?: string[];
};

/** The API Pix PSP: charges read back, and its statement answered by `list` (every call recorded). */
function statementPsp(psp: Psp, list: (window: StatementWindow, page: number) => { payments: ReceivedPix[]; pages: number }) {
  const listed: { from: string; to: string; page: number }[] = [];
  const lookups: string[] = [];
  const read = (charges: Record<string, PixChargeState> | undefined) => async (t: string) => {
    lookups.push(t);
    if (psp.failing?.includes(t)) throw new ProviderError('PSP down');
    return charges?.[t];
  };
  const provider: StatementProvider & LookingUpPixProvider = {
    name: 'apipix',
    charges: {
      pix: async () => {
        throw new Error('not asked');
      },
    },
    lookupPixCharge: read(psp.cob),
    dueCharges: {
      create: async () => {
        throw new Error('not asked');
      },
      remove: async () => {
        throw new Error('not asked');
      },
      lookup: read(psp.cobv),
    },
    receivedPix: async (window, page) => {
      listed.push({ from: window.from.toISOString(), to: window.to.toISOString(), page });
      return list(window, page);
    },
  };
  return { provider, listed, lookups };
}

/** A statement as the test PSP pages it: the Pix whose time is in [from, to], oldest first, `size` a page. */
function pagedStatement(all: ReceivedPix[], size: number, failOn?: (window: StatementWindow, page: number) => boolean) {
  return (window: StatementWindow, page: number) => {
    if (failOn?.(window, page)) throw new ProviderError('PSP down');
    const within = all.filter((p) => p.paidAt >= window.from && p.paidAt <= window.to).sort((a, b) => a.paidAt.getTime() - b.paidAt.getTime());
    return { payments: within.slice(page * size, page * size + size), pages: Math.max(1, Math.ceil(within.length / size)) };
  };
}

/** The sweep's cursor in memory, moved only from the place it was read (the adapter's conditional PutItem). */
function memoryCursors(initial?: StatementCursor, refuse = false) {
  let stored = initial;
  const advances: { from: StatementCursor | undefined; to: StatementCursor }[] = [];
  const cursors: PixStatementCursors = {
    read: async () => stored,
    advance: async (_provider, from, to) => {
      advances.push({ from, to });
      if (refuse || JSON.stringify(from) !== JSON.stringify(stored)) return false;
      stored = to;
      return true;
    },
  };
  return { cursors, advances, stored: () => stored };
}

describe('reconcileStatement: a window of the PSP statement checked against the ledger', () => {
  const window = { from: new Date('2026-11-26T12:30:00.000Z'), to: until };
  const invoices = [
    pixInvoice('INV-RECORD', 1, { status: 'PAID', paidRail: 'pix', awaitsPixLookup: undefined }),
    pixInvoice('INV-PENDIN', 2),
    bolePixInvoice('INV-BOLEPX', 3, { status: 'PAID', paidRail: 'boleto' }),
    pixInvoice('INV-WRONGA', 4),
  ];
  const psp: Psp = {
    cob: { [txid(2)]: completed(2, [payment('E2')]), [txid(4)]: completed(4, [payment('E4', 2_400)]) },
    cobv: { [txid(3)]: completed(3, [payment('E3')]) },
  };
  const pages = [
    [received('E1', 1), received('E2', 2)],
    [received('E-KEY', undefined, 1_000), received('E-UNKNOWN', 99)],
    [received('E3', 3), received('E4', 4, 2_400)],
  ];
  const statement = (_window: StatementWindow, page: number) => ({ payments: pages[page] ?? [], pages: 3 });

  it('reads every page and gives each Pix its verdict: recorded, recovered (applied once), unmatched, missing', async () => {
    const world = ledgerWorld(invoices);
    const { provider, listed, lookups } = statementPsp(psp, statement);
    const outcome = await reconcileStatement(world.ports, provider, window, now);
    expect(outcome).toEqual({ checked: 6, recorded: 1, recovered: 2, unmatched: 2, missing: 1, pages: 3 });
    expect(listed).toEqual([0, 1, 2].map((page) => ({ from: window.from.toISOString(), to: window.to.toISOString(), page })));
    // A Pix its invoice records is not read back; the others are, each where its charge lives (cob, cobv).
    expect(lookups.sort()).toEqual([txid(2), txid(3), txid(4)]);

    // The PENDING invoice paid at the PSP: paid once, by Pix, through the one move transaction.
    const moves = world.commits.filter((changes) => changes[0]?.kind === 'invoice.moved');
    expect(moves).toHaveLength(1);
    expect(moves[0]?.[0]).toMatchObject({
      kind: 'invoice.moved',
      invoice: { reference: 'INV-PENDIN' },
      move: { from: 'PENDING', to: 'PAID' },
      payment: { rail: 'pix', amountCents: 2_500 },
    });
    expect(moves[0]?.some((change) => change.kind === 'ledger.transfer')).toBe(true);
    expect(world.store.get('INV-PENDIN')).toMatchObject({ status: 'PAID', paidRail: 'pix' });

    // The BolePix paid by boleto: its Pix held apart as a refund due (no second move, reserved credit).
    const others = world.commits.filter((changes) => changes[0]?.kind === 'invoice.other_rail_paid');
    expect(others).toHaveLength(1);
    expect(others[0]?.[0]).toMatchObject({ kind: 'invoice.other_rail_paid', invoice: { reference: 'INV-BOLEPX' }, rail: 'pix', amountCents: 2_500 });
    expect(others[0]?.[1]).toMatchObject({
      kind: 'ledger.transfer',
      phase: 'pending',
      reference: 'INV-BOLEPX',
      shards: [{ availableCents: 0, reservedCents: 2_500 }],
    });
    expect(world.store.get('INV-BOLEPX')).toMatchObject({ status: 'PAID', paidRail: 'boleto', otherRailPayment: { rail: 'pix', amountCents: 2_500 } });

    // Another amount than the one due is never credited.
    expect(world.store.get('INV-WRONGA')?.status).toBe('PENDING');
    expect(world.commits).toHaveLength(2);
  });

  it('a window read twice records nothing twice: what was recovered is now recorded', async () => {
    const world = ledgerWorld(invoices);
    const { provider } = statementPsp(psp, statement);
    await reconcileStatement(world.ports, provider, window, now);
    const again = await reconcileStatement(world.ports, provider, window, now);
    expect(again).toEqual({ checked: 6, recorded: 3, recovered: 0, unmatched: 2, missing: 1, pages: 3 });
    expect(world.commits).toHaveLength(2);
  });

  it('a Pix whose txid is a charge of another provider paid none of this PSP: unmatched, nothing read back', async () => {
    const world = ledgerWorld([
      pixInvoice('INV-OTHERP', 5, { provider: 'simulated' }),
      bolePixInvoice('INV-OTHERB', 6, { pix: { txid: txid(6), location: 'l', copy: 'c', provider: 'otherpsp' } }),
    ]);
    const { provider, lookups } = statementPsp({ cob: { [txid(5)]: completed(5, [payment('E5')]) } }, () => ({
      payments: [received('E5', 5), received('E6', 6)],
      pages: 1,
    }));
    expect(await reconcileStatement(world.ports, provider, window, now)).toEqual({ checked: 2, recorded: 0, recovered: 0, unmatched: 2, missing: 0, pages: 1 });
    expect(lookups).toEqual([]);
    expect(world.commits).toEqual([]);
  });

  it('a PENDING invoice the PSP does not show paid (the read-back finds no payment) is missing, not recovered', async () => {
    const world = ledgerWorld([pixInvoice('INV-ACTIVE', 7)]);
    const active: PixChargeState = { txid: txid(7), status: 'ACTIVE', amountCents: 2_500, payments: [] };
    const { provider } = statementPsp({ cob: { [txid(7)]: active } }, () => ({ payments: [received('E7', 7)], pages: 1 }));
    expect(await reconcileStatement(world.ports, provider, window, now)).toMatchObject({ checked: 1, recovered: 0, missing: 1 });
    expect(world.commits).toEqual([]);
  });

  it('a second Pix of another amount on a charge that records its payment is missing (a charge takes one Pix), never read back', async () => {
    const world = ledgerWorld([pixInvoice('INV-TWICEP', 8, { status: 'PAID', paidRail: 'pix', paidAmountCents: 2_500, awaitsPixLookup: undefined })]);
    const { provider, lookups } = statementPsp({}, () => ({ payments: [received('E8a', 8), received('E8b', 8, 900)], pages: 1 }));
    expect(await reconcileStatement(world.ports, provider, window, now)).toEqual({ checked: 2, recorded: 1, recovered: 0, unmatched: 0, missing: 1, pages: 1 });
    expect(lookups).toEqual([]);
    expect(world.commits).toEqual([]);
  });

  it('a payment the rules refuse (dated before its charge) is missing, counted once, and the check goes on', async () => {
    const world = ledgerWorld([pixInvoice('INV-EARLYP', 9), pixInvoice('INV-LATERP', 10)]);
    const early = new Date('2026-11-27T11:00:00.000Z');
    const { provider } = statementPsp(
      { cob: { [txid(9)]: completed(9, [{ ...payment('E9'), paidAt: early }]), [txid(10)]: completed(10, [payment('E10')]) } },
      () => ({ payments: [received('E9', 9, 2_500, early), received('E10', 10)], pages: 1 }),
    );
    expect(await reconcileStatement(world.ports, provider, window, now)).toEqual({ checked: 2, recorded: 0, recovered: 1, unmatched: 0, missing: 1, pages: 1 });
    expect(world.store.get('INV-EARLYP')?.status).toBe('PENDING');
    expect(world.store.get('INV-LATERP')?.status).toBe('PAID');
  });

  it('an empty statement (0 pages) reads one page and checks nothing', async () => {
    const world = ledgerWorld([]);
    const { provider, listed } = statementPsp({}, () => ({ payments: [], pages: 0 }));
    expect(await reconcileStatement(world.ports, provider, window, now)).toEqual({ checked: 0, recorded: 0, recovered: 0, unmatched: 0, missing: 0, pages: 0 });
    expect(listed).toHaveLength(1);
  });

  it('a read-back failure stops the check (the caller reads the window again)', async () => {
    const world = ledgerWorld(invoices);
    const { provider, listed } = statementPsp({ ...psp, failing: [txid(2)] }, statement);
    await expect(reconcileStatement(world.ports, provider, window, now)).rejects.toBeInstanceOf(ProviderError);
    expect(listed.map((l) => l.page)).toEqual([0]);
    expect(world.commits).toEqual([]);
  });
});

describe('statementPass: the sweep reads the statement on from its cursor', () => {
  const recorded = [1, 2, 3, 4, 5].map((n) => pixInvoice(`INV-RECOR${n}`, n, { status: 'PAID', paidRail: 'pix', awaitsPixLookup: undefined }));
  /** Five Pix in the day before `until`, each recorded: pages of 2 → 3 pages. */
  const statement = [1, 2, 3, 4, 5].map((n) => received(`E${n}`, n, 2_500, new Date(U - n * HOUR)));
  const firstPass = { from: iso(U - DAY), to: iso(U) };

  it('with no cursor, reads the day before `until` page by page, moving the cursor from each page read to the next, and stops done at `until`', async () => {
    const world = ledgerWorld(recorded);
    const { provider, listed } = statementPsp({}, pagedStatement(statement, 2));
    const cursor = memoryCursors();
    const tally = await statementPass({ ...world.ports, cursors: cursor.cursors }, provider, until, now, () => true);
    expect(tally).toEqual({ checked: 5, recorded: 5, recovered: 0, unmatched: 0, missing: 0 });
    expect(listed).toEqual([0, 1, 2].map((page) => ({ ...firstPass, page })));
    expect(cursor.advances).toEqual([
      { from: undefined, to: { ...firstPass, page: 1 } },
      { from: { ...firstPass, page: 1 }, to: { ...firstPass, page: 2 } },
      { from: { ...firstPass, page: 2 }, to: { from: iso(U), to: iso(U), page: 0 } },
    ]);
    expect(cursor.stored()).toEqual({ from: iso(U), to: iso(U), page: 0 });
    // Nothing left until time moves on: a run at the same `until` reads nothing and writes nothing.
    const { provider: again, listed: listedAgain } = statementPsp({}, pagedStatement(statement, 2));
    expect(await statementPass({ ...world.ports, cursors: cursor.cursors }, again, until, now, () => true)).toMatchObject({ checked: 0 });
    expect(listedAgain).toEqual([]);
    expect(cursor.advances).toHaveLength(3);
    // Later, the next run reads on from where the last pass ended.
    const later = new Date(U + HOUR);
    const { provider: next, listed: listedNext } = statementPsp({}, pagedStatement(statement, 2));
    await statementPass({ ...world.ports, cursors: cursor.cursors }, next, later, now, () => true);
    expect(listedNext).toEqual([{ from: iso(U), to: iso(U + HOUR), page: 0 }]);
  });

  it('a stored first page is read stretched up to `until`, and the cursor moves on condition of the one stored', async () => {
    const stored: StatementCursor = { from: iso(U - 2 * HOUR), to: iso(U - 2 * HOUR), page: 0 };
    const { provider, listed } = statementPsp({}, pagedStatement(statement, 2));
    const cursor = memoryCursors(stored);
    const tally = await statementPass({ ...ledgerWorld(recorded).ports, cursors: cursor.cursors }, provider, until, now, () => true);
    // E1 (U − 1 h) and E2 (U − 2 h, the bound) are in [U − 2 h, U].
    expect(tally).toMatchObject({ checked: 2, recorded: 2 });
    expect(listed).toEqual([{ from: iso(U - 2 * HOUR), to: iso(U), page: 0 }]);
    expect(cursor.advances).toEqual([{ from: stored, to: { from: iso(U), to: iso(U), page: 0 } }]);
  });

  it('stops when another run moved the cursor first (its advance refused): nothing more read', async () => {
    const world = ledgerWorld(recorded);
    const { provider, listed } = statementPsp({}, pagedStatement(statement, 2));
    const cursor = memoryCursors(undefined, true);
    const tally = await statementPass({ ...world.ports, cursors: cursor.cursors }, provider, until, now, () => true);
    expect(tally.checked).toBe(2);
    expect(listed).toHaveLength(1);
    expect(cursor.advances).toHaveLength(1);
    expect(cursor.stored()).toBeUndefined();
  });

  it('reads nothing when no time is left, and stops between pages when time runs out (the cursor on the next page)', async () => {
    const none = statementPsp({}, pagedStatement(statement, 2));
    const idle = memoryCursors();
    expect(await statementPass({ ...ledgerWorld(recorded).ports, cursors: idle.cursors }, none.provider, until, now, () => false)).toMatchObject({
      checked: 0,
    });
    expect(none.listed).toEqual([]);
    expect(idle.advances).toEqual([]);

    const one = statementPsp({}, pagedStatement(statement, 2));
    const cursor = memoryCursors();
    let asked = 0;
    const tally = await statementPass({ ...ledgerWorld(recorded).ports, cursors: cursor.cursors }, one.provider, until, now, () => (asked += 1) === 1);
    expect(tally.checked).toBe(2);
    expect(one.listed).toEqual([{ ...firstPass, page: 0 }]);
    expect(cursor.stored()).toEqual({ ...firstPass, page: 1 });
  });

  it('a PSP failure mid-pass throws and leaves the cursor on the failed page; the next run resumes there and finishes the pass', async () => {
    const world = ledgerWorld(recorded);
    const failing = statementPsp(
      {},
      pagedStatement(statement, 2, (_window, page) => page === 1),
    );
    const cursor = memoryCursors();
    await expect(statementPass({ ...world.ports, cursors: cursor.cursors }, failing.provider, until, now, () => true)).rejects.toBeInstanceOf(ProviderError);
    expect(failing.listed.map((l) => l.page)).toEqual([0, 1]);
    expect(cursor.advances).toEqual([{ from: undefined, to: { ...firstPass, page: 1 } }]);
    expect(cursor.stored()).toEqual({ ...firstPass, page: 1 });

    const healthy = statementPsp({}, pagedStatement(statement, 2));
    const tally = await statementPass({ ...world.ports, cursors: cursor.cursors }, healthy.provider, new Date(U + HOUR), now, () => true);
    // The pass under way is kept as stored (not stretched to the later `until`), from the failed page.
    expect(healthy.listed).toEqual([
      { ...firstPass, page: 1 },
      { ...firstPass, page: 2 },
      { from: iso(U), to: iso(U + HOUR), page: 0 },
    ]);
    expect(tally).toMatchObject({ checked: 3, recorded: 3 });
    expect(cursor.stored()).toEqual({ from: iso(U + HOUR), to: iso(U + HOUR), page: 0 });
  });

  it('a read-back failure on a page leaves the cursor on that page: its Pix are checked again next run, and recorded once', async () => {
    const world = ledgerWorld([pixInvoice('INV-PENDIN', 2), pixInvoice('INV-FAILNG', 3)]);
    const pix = [received('E2', 2, 2_500, new Date(U - 2 * HOUR)), received('E3', 3, 2_500, new Date(U - HOUR))];
    const cob = { [txid(2)]: completed(2, [payment('E2')]), [txid(3)]: completed(3, [payment('E3')]) };
    const first = statementPsp({ cob, failing: [txid(3)] }, pagedStatement(pix, 2));
    const cursor = memoryCursors();
    await expect(statementPass({ ...world.ports, cursors: cursor.cursors }, first.provider, until, now, () => true)).rejects.toBeInstanceOf(ProviderError);
    expect(cursor.advances).toEqual([]);
    expect(world.commits).toHaveLength(1);

    const second = statementPsp({ cob }, pagedStatement(pix, 2));
    const tally = await statementPass({ ...world.ports, cursors: cursor.cursors }, second.provider, until, now, () => true);
    expect(tally).toEqual({ checked: 2, recorded: 1, recovered: 1, unmatched: 0, missing: 0 });
    expect(world.commits.map((changes) => changes[0]?.kind === 'invoice.moved' && changes[0].invoice.reference)).toEqual(['INV-PENDIN', 'INV-FAILNG']);
  });

  it('after a week down, walks forward in passes of at most MAX_PASS_MS, back to back, up to `until`', async () => {
    const stored: StatementCursor = { from: iso(U - 7 * DAY), to: iso(U - 7 * DAY), page: 0 };
    const { provider, listed } = statementPsp({}, pagedStatement([], 2));
    const cursor = memoryCursors(stored);
    await statementPass({ ...ledgerWorld([]).ports, cursors: cursor.cursors }, provider, until, now, () => true);
    expect(listed).toHaveLength(7);
    listed.forEach((window, i) => {
      expect(Date.parse(window.to) - Date.parse(window.from)).toBeLessThanOrEqual(MAX_PASS_MS);
      expect(window.from, `pass ${i}`).toBe(i === 0 ? stored.from : listed[i - 1]?.to);
    });
    expect(listed.at(-1)?.to).toBe(iso(U));
    expect(cursor.stored()).toEqual({ from: iso(U), to: iso(U), page: 0 });
  });
});

describe('the Pix sweep with the PSP statement', () => {
  const pending = pixInvoice('INV-SWEEP1', 8);
  const lost = pixInvoice('INV-LOSTCB', 9, { awaitsPixLookup: undefined });
  const cob = { [txid(8)]: completed(8, [payment('E8')]), [txid(9)]: completed(9, [payment('E9')]) };

  function sweepWith(list: (window: StatementWindow, page: number) => { payments: ReceivedPix[]; pages: number }, nowMs: () => number = () => 0) {
    const world = ledgerWorld([pending, lost]);
    const psp = statementPsp({ cob }, list);
    const cursor = memoryCursors();
    const ports: PixSweepPorts = {
      ...world.ports,
      index: { partitions: ['P0'], due: async () => ['INV-SWEEP1'], retire: async () => false },
      providerOf: () => psp.provider,
      afterMinutes: 30,
      nowMs,
      statement: { provider: psp.provider, cursors: cursor.cursors },
    };
    return { ports, world, psp, cursor };
  }

  it('checks the statement up to now − the wait first (a payment whose callback was lost and that left the index is recorded), then the PENDING charges', async () => {
    const run = sweepWith(pagedStatement([received('E9', 9, 2_500, new Date(U - HOUR)), received('E-KEY', undefined, 500, new Date(U - HOUR))], 100));
    const outcome = await pixSweep(run.ports, now, 60_000);
    expect(outcome).toEqual({
      checked: 1,
      applied: 1,
      anomalies: 0,
      retired: 0,
      failed: 0,
      statement: { checked: 2, recorded: 0, recovered: 1, unmatched: 1, missing: 0 },
    });
    expect(run.psp.listed).toEqual([{ ...{ from: iso(U - DAY), to: iso(U) }, page: 0 }]);
    expect(run.world.store.get('INV-LOSTCB')).toMatchObject({ status: 'PAID', paidRail: 'pix' });
    expect(run.world.store.get('INV-SWEEP1')).toMatchObject({ status: 'PAID', paidRail: 'pix' });
  });

  it('a statement failure is counted in `failed` and the PENDING charges are still swept', async () => {
    const run = sweepWith(() => {
      throw new ProviderError('PSP down');
    });
    const outcome = await pixSweep(run.ports, now, 60_000);
    expect(outcome).toEqual({
      checked: 1,
      applied: 1,
      anomalies: 0,
      retired: 0,
      failed: 1,
      statement: { checked: 0, recorded: 0, recovered: 0, unmatched: 0, missing: 0 },
    });
    expect(run.world.store.get('INV-SWEEP1')?.status).toBe('PAID');
    expect(run.cursor.advances).toEqual([]);
  });

  it('the statement has half the budget: past it, nothing of it is read, and the charges still have the rest', async () => {
    const clock = [0, 31_000];
    const run = sweepWith(pagedStatement([received('E9', 9, 2_500, new Date(U - HOUR))], 100), () => clock.shift() ?? 31_000);
    const outcome = await pixSweep(run.ports, now, 60_000);
    expect(run.psp.listed).toEqual([]);
    expect(outcome).toMatchObject({ checked: 1, applied: 1, failed: 0, statement: { checked: 0 } });
    expect(run.world.store.get('INV-LOSTCB')?.status).toBe('PENDING');
  });
});

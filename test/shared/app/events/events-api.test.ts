import { describe, expect, it } from 'vitest';
import { getEvent, listEvents, type EventsPorts } from '../../../../shared/app/events/events-api';
import type { LoggedEvent } from '../../../../shared/domain/events-log';
import type { EventLogQuery } from '../../../../shared/ports/webhooks';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const logged: LoggedEvent = {
  accountId: 'acct_1',
  event: {
    id: 'evt_1',
    type: 'invoice.paid',
    created: Math.floor(NOW.getTime() / 1000) - 60,
    api_version: 'v',
    data: { invoice: { reference: 'INV-AAAAAA', version: 2 } },
  },
};

/** An event log of one event, recording the queries it was asked. */
function ports(configured = true) {
  const url = configured ? 'https://shop.example/hooks' : undefined;
  const asked: EventLogQuery[] = [];
  const run: EventsPorts = {
    log: {
      list: async (query, _paging, keep) => {
        asked.push(query);
        const kept = keep(logged, undefined);
        return kept === undefined ? [] : [kept];
      },
      get: async (id) => (id === logged.event.id ? logged : undefined),
    },
    webhooks: { settings: async () => ({ url, secretConfigured: true }), delivery: async () => undefined },
    now: () => NOW,
  };
  return { asked, ports: run };
}

describe('the events API (use cases, issue 29)', () => {
  it('lists within the 30 days kept, in the Brazil-date range asked; an event on its way is pending, one with no URL not_sent', async () => {
    const run = ports();
    const page = await listEvents(run.ports, 'acct_1', { page: 1, limit: 10, start: '2026-11-01' });
    expect(page.events).toEqual([{ ...logged.event, delivery_status: 'pending' }]);
    expect(run.asked).toEqual([{ accountId: 'acct_1', fromIso: '2026-11-01T03:00:00.000Z', toIso: NOW.toISOString() }]);
    const older = ports();
    await listEvents(older.ports, 'acct_1', { page: 1, limit: 10, start: '2026-01-01' });
    expect(older.asked[0]?.fromIso).toBe('2026-10-29T12:00:00.000Z');
    const noUrl = ports(false);
    expect((await listEvents(noUrl.ports, 'acct_1', { page: 1, limit: 10, delivery_status: 'pending' })).events).toEqual([]);
    expect((await listEvents(noUrl.ports, 'acct_1', { page: 1, limit: 10 })).events).toEqual([{ ...logged.event, delivery_status: 'not_sent' }]);
  });

  it('a range wholly in the future or wholly past the 30 days is empty, and asks the table nothing', async () => {
    const run = ports();
    expect((await listEvents(run.ports, 'acct_1', { page: 1, limit: 10, start: '2030-01-01' })).events).toEqual([]);
    expect((await listEvents(run.ports, 'acct_1', { page: 1, limit: 10, end: '2026-10-01' })).events).toEqual([]);
    expect(run.asked).toEqual([]);
  });

  it("another account's event, or an unknown one, is not found", async () => {
    const run = ports();
    await expect(getEvent(run.ports, 'acct_2', 'evt_1')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(getEvent(run.ports, 'acct_1', 'evt_2')).rejects.toMatchObject({ kind: 'not_found' });
    expect((await getEvent(run.ports, 'acct_1', 'evt_1')).event).toMatchObject({ id: 'evt_1', delivery_status: 'pending', delivery: null });
  });
});

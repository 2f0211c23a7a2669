import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditAccount } from '../../shared/adapters/dynamo/accounts';
import { accountStore, admin, bearer, call, tokenFor } from '../support/api';
import { common, createCharge } from '../support/charges';
import { eventsAbout, eventually, scanAll } from '../support/ledger';
import { acceptInvite, enrolledPerson, get, hidden, Jar, post, signIn } from '../support/panel';
import { notification, notify } from '../support/provider';
import { type Receiver, startReceiver } from '../support/webhook-receiver';

const rowsOf = (html: string, attribute: string) => [...html.matchAll(new RegExp(`<tr ${attribute}="([^"]+)"`, 'g'))].map((m) => m[1]);

describe('merchant panel: invoices and the statement (issue 27)', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver('127.0.0.15');
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('lists invoices with GET /api/invoices’ filters and shows one with the event its payment recorded and that event’s delivery', async () => {
    const person = await enrolledPerson('viewer');
    const auth = bearer(await tokenFor(person.keys));
    expect((await call('PUT', '/api/webhook', { headers: auth, body: { url: receiver.url } })).status).toBe(200);
    const tag = `${Date.now()}`;
    const paid = await createCharge('pix', auth, common({ invoice_no: `PAINEL-PAGA-${tag}` }));
    const open = await createCharge('pix', auth, common({ invoice_no: `PAINEL-ABERTA-${tag}` }));
    expect([paid.status, open.status]).toEqual([200, 200]);
    const reference = String(paid.invoice.reference);
    expect((await notify(notification('pix-paid', { txid: String(paid.invoice.txid) }))).status).toBe(200);
    const [event] = await eventually(
      () => eventsAbout(person.accountId, reference),
      (events) => events.length === 1,
    );
    await eventually(
      () => receiver.received.filter((r) => r.body.includes(event?.id ?? '-')),
      (got) => got.length > 0,
    );

    const jar = new Jar();
    expect((await signIn(jar, person)).status).toBe(303);
    const list = await get(jar, '/panel/faturas');
    expect(list.status).toBe(200);
    expect(rowsOf(list.text, 'data-reference')).toEqual([String(open.invoice.reference), reference]);
    const filtered = await get(jar, `/panel/faturas?invoice_no=PAINEL-PAGA-${tag}`);
    expect(rowsOf(filtered.text, 'data-reference')).toEqual([reference]);
    // The API's rule: the dates go together (422 page naming the field).
    const half = await get(jar, '/panel/faturas?start_date=2026-01-01');
    expect(half.status).toBe(422);
    expect(half.text).toContain('data-field="end_date"');

    const detail = await eventually(
      () => get(jar, `/panel/faturas/${reference}`),
      (page) => page.text.includes('data-delivery="succeeded"'),
    );
    expect(detail.status).toBe(200);
    expect(detail.text).toContain('id="invoice-status">Paga<');
    expect(rowsOf(detail.text, 'data-event')).toEqual([event?.id]);
    expect(detail.text).toContain('data-type="invoice.paid"');
    // The open invoice has recorded no event yet.
    expect((await get(jar, `/panel/faturas/${String(open.invoice.reference)}`)).text).toContain('id="no-events"');
    for (const path of ['/panel/faturas/INV-NAOEXISTE', '/panel/faturas/qualquer%20coisa']) expect((await get(jar, path)).status).toBe(404);
  }, 120_000);

  it('redelivers one ended delivery from the webhook page: the same event id and body again, a new series, audited; a viewer may not; another account’s event is a 404', async () => {
    const dev = await enrolledPerson('developer');
    const auth = bearer(await tokenFor(dev.keys));
    expect((await call('PUT', '/api/webhook', { headers: auth, body: { url: receiver.url } })).status).toBe(200);
    const charge = await createCharge('pix', auth, common({ invoice_no: `PAINEL-REENVIO-${Date.now()}` }));
    expect((await notify(notification('pix-paid', { txid: String(charge.invoice.txid) }))).status).toBe(200);
    const [event] = await eventually(
      () => eventsAbout(dev.accountId, String(charge.invoice.reference)),
      (events) => events.length === 1,
    );
    const eventId = event?.id ?? '-';
    const copies = () => receiver.received.filter((r) => r.body.includes(eventId));
    await eventually(copies, (got) => got.length === 1);

    const jar = new Jar();
    expect((await signIn(jar, dev)).status).toBe(303);
    const page = await eventually(
      () => get(jar, '/panel/webhooks'),
      (p) => p.text.includes(`<tr data-event="${eventId}" data-delivery="succeeded"`),
    );
    expect(page.text).toContain(`aria-label="Reenviar o evento ${eventId}"`);
    const csrf = hidden(page.text, 'csrf_token');

    // Another account's person (a developer too) cannot name this event: the 404 of an unknown one, nothing sent.
    const other = await enrolledPerson('developer');
    const otherJar = new Jar();
    expect((await signIn(otherJar, other)).status).toBe(303);
    const otherCsrf = hidden((await get(otherJar, '/panel/webhooks')).text, 'csrf_token');
    expect((await post(otherJar, '/panel/webhooks/reenviar', { csrf_token: otherCsrf, event: eventId })).status).toBe(404);
    // A viewer of the same account may read the page but not redeliver.
    const viewerEmail = `leitor${Date.now()}@example.com`;
    const invite = (await admin('panel', 'invite', '--account', dev.accountId, '--email', viewerEmail, '--role', 'viewer')).json as { invite_url: string };
    const viewer = { accountId: dev.accountId, keys: dev.keys, ...(await acceptInvite(invite.invite_url, viewerEmail)) };
    const viewerJar = new Jar();
    expect((await signIn(viewerJar, viewer)).status).toBe(303);
    const viewerPage = await get(viewerJar, '/panel/webhooks');
    expect(viewerPage.text).not.toContain('Reenviar o evento');
    expect((await post(viewerJar, '/panel/webhooks/reenviar', { csrf_token: hidden(viewerPage.text, 'csrf_token'), event: eventId })).status).toBe(403);

    const redelivered = await post(jar, '/panel/webhooks/reenviar', { csrf_token: csrf, event: eventId });
    expect(redelivered.status).toBe(200);
    expect(redelivered.text).toContain(`Reenvio do evento ${eventId} na fila`);
    const got = await eventually(copies, (all) => all.length === 2);
    expect(got).toHaveLength(2);
    expect(got[1]?.body).toBe(got[0]?.body);
    const [delivery] = await scanAll({ FilterExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': `DLV#${eventId}` } });
    expect(delivery).toMatchObject({ status: 'succeeded', series: 2 });
    const audit = await scanAll({
      FilterExpression: '#t = :t AND #a = :a AND email = :e',
      ExpressionAttributeNames: { '#t': 'type', '#a': 'action' },
      ExpressionAttributeValues: { ':t': 'panel_audit', ':a': 'webhook.redelivered', ':e': dev.email },
    });
    expect(audit.map((entry) => entry.detail)).toEqual([`evento ${eventId}`]);
    // Nothing more was sent: the other account's and the viewer's posts queued nothing.
    expect(copies()).toHaveLength(2);
  }, 120_000);

  it('shows the ledger with its filters and exports the filtered range as CSV (cells a spreadsheet would run are defused); a viewer cannot export', async () => {
    const finance = await enrolledPerson('finance');
    await creditAccount(accountStore(), finance.accountId, 12_345, 'Aporte inicial');
    await creditAccount(accountStore(), finance.accountId, 655, '=HYPERLINK("https://evil.example","clique")');
    const auth = bearer(await tokenFor(finance.keys));
    const pix = await createCharge('pix', auth, common({ amount: 10, quantity: 1, tax: 0, discount: 0 }));
    expect((await notify(notification('pix-paid', { txid: String(pix.invoice.txid) }))).status).toBe(200);

    const jar = new Jar();
    expect((await signIn(jar, finance)).status).toBe(303);
    const page = await get(jar, '/panel/extrato');
    expect(page.status).toBe(200);
    expect(page.text.match(/<tr data-entry=/g)).toHaveLength(3);
    expect(page.text).toContain('id="export-csv" href="/panel/extrato/csv"');
    const adjustments = await get(jar, '/panel/extrato?type=adjustment');
    expect(adjustments.text.match(/<tr data-entry="[^"]+" data-type="adjustment"/g)).toHaveLength(2);
    expect(adjustments.text).not.toContain('data-type="payment"');
    expect(adjustments.text).toContain('href="/panel/extrato/csv?type=adjustment"');

    const csv = await call('GET', '/panel/extrato/csv?type=adjustment', { headers: jar.header(), sourceIp: jar.ip });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="extrato.csv"');
    expect(csv.headers['cache-control']).toContain('no-store');
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,created_at,type,amount,reserved,reference,description');
    expect(lines.slice(1).map((line) => line.split(',')[3])).toEqual(['6.55', '123.45']);
    expect(lines[1]).toContain(`"'=HYPERLINK(""https://evil.example""`);
    const all = await call('GET', '/panel/extrato/csv', { headers: jar.header(), sourceIp: jar.ip });
    expect(all.text.trimEnd().split('\r\n')).toHaveLength(4);

    const viewer = await enrolledPerson('viewer');
    const viewerJar = new Jar();
    expect((await signIn(viewerJar, viewer)).status).toBe(303);
    expect((await get(viewerJar, '/panel/extrato')).text).not.toContain('id="export-csv"');
    expect((await get(viewerJar, '/panel/extrato/csv')).status).toBe(403);
  }, 180_000);
});

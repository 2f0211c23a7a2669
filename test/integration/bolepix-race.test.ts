import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createBoleto } from '../../functions/charges/boleto';
import { keys } from '../../shared/adapters/dynamo/keys';
import { parseAmountToCents } from '../../shared/domain/money';
import { routes } from '../../shared/http/routes';
import { accountStore, bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { common, createCustomerWithAddress } from '../support/charges';
import { invoke, type Invoked } from '../support/invoke';
import { ledgerEntriesOf, reservedShards, storedBalanceCents } from '../support/ledger';
import { notifyHere } from '../support/provider';

/**
 * Issue 43, finding 1: a BolePix paid on both rails at the same instant. The probe sent `boleto.paid`
 * and `pix.paid` for one invoice together: the move that lost its race answered 200 with nothing
 * recorded. Now every payment is in the ledger: the invoice's, and the second one held apart (reserved)
 * as a refund due, whichever rail wins; a notification answered 503 is sent again, as a provider does.
 */

type Created = { reference: string; total: string; txid: string };

/** A notification as the provider sends it: again while the answer is 503 (nothing was written), at most 20 times. */
async function deliver(command: 'pix-paid' | 'boleto-paid', target: { txid?: string; reference?: string }): Promise<Invoked> {
  for (let attempt = 1; ; attempt += 1) {
    const reply = await notifyHere(command, target);
    if (reply.status !== 503 || attempt >= 20) return reply;
  }
}

describe('a BolePix paid on both rails at the same instant (issue 43, finding 1)', () => {
  beforeAll(() => {
    useLocalStackEnvironment();
    process.env.RATE_LIMIT_ACCOUNT_PER_MINUTE = '100000';
  });

  it('2 rails at once × 20 invoices: every payment in the ledger, the second held as a refund due, each exactly once', async () => {
    const issued = await newAccount(['pix', 'boleto']);
    const auth = bearer(await tokenFor(issued));
    const customer = await createCustomerWithAddress(auth);
    const invoices: Created[] = [];
    for (let i = 0; i < 20; i += 1) {
      const reply = await invoke(createBoleto, routes.createBoleto, { headers: auth, body: { ...common({ amount: 10 + i }), customer } });
      expect(reply.status, reply.body).toBe(200);
      invoices.push((reply.json as { invoice: Created }).invoice);
    }
    expect(invoices.every((invoice) => typeof invoice.txid === 'string')).toBe(true);

    const answers = await Promise.all(
      invoices.flatMap((invoice) => [deliver('boleto-paid', { reference: invoice.reference }), deliver('pix-paid', { txid: invoice.txid })]),
    );
    expect(answers.map((reply) => reply.status)).toEqual(answers.map(() => 200));
    // Both notifications of every invoice did something: one paid it, the other was held as a refund due.
    expect(answers.map((reply) => (reply.json as { applied: boolean }).applied)).toEqual(answers.map(() => true));

    const store = accountStore();
    const entries = await ledgerEntriesOf(issued.account_id);
    let totalCents = 0;
    for (const invoice of invoices) {
      const cents = parseAmountToCents(invoice.total);
      totalCents += cents;
      const item = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.invoice(invoice.reference), ConsistentRead: true }))).Item ?? {};
      expect(item.status).toBe('PAID');
      const paidRail = String(item.paidRail);
      expect(['boleto', 'pix']).toContain(paidRail);
      expect(item.otherRailPayment).toMatchObject({ rail: paidRail === 'pix' ? 'boleto' : 'pix', amountCents: cents });
      const payments = entries.filter((entry) => entry.entryType === 'payment' && entry.reference === invoice.reference);
      expect(payments.map((entry) => [entry.amountCents, entry.reservedCents ?? 0]).sort()).toEqual([
        [0, cents],
        [cents, 0],
      ]);
    }
    // The invoices' payments are available; the second payments are held, never withdrawable.
    expect(await storedBalanceCents(issued.account_id)).toBe(totalCents);
    expect((await reservedShards(issued.account_id)).reduce((sum, cents) => sum + cents, 0)).toBe(totalCents);
  }, 240_000);
});

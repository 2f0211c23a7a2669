import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as createBoleto } from '../../functions/charges/boleto';
import { invoiceByTxid } from '../../shared/adapters/dynamo/invoice-lookup';
import { amountDue } from '../../shared/domain/late-payment';
import { formatCents, parseAmountToCents } from '../../shared/domain/money';
import { routes } from '../../shared/http/routes';
import { paymentProvider } from '../../shared/wiring/provider-registry';
import type { SimulatedProvider } from '../../shared/adapters/providers/simulated';
import { getRuntime } from '../../shared/wiring/runtime';
import { type ApiPixEnvironment, apiPixMerchant, startApiPixEnvironment } from '../support/apipix-env';
import { common } from '../support/charges';
import { invoke } from '../support/invoke';
import { storedBalanceCents } from '../support/ledger';
import { notifyHere } from '../support/provider';

/**
 * A BolePix whose Pix half is at an API Pix PSP (issue 28), in this process against the standard-shaped
 * test PSP: the half is PUT /cobv/{txid} with the boleto's payer and rules, a callback is read back with
 * GET /cobv/{txid} before anything is credited (at the amount due that day), and a boleto payment
 * withdraws the cobv at the PSP (PATCH status REMOVIDA_PELO_USUARIO_RECEBEDOR).
 */

let environment: ApiPixEnvironment;
let auth: Record<string, string>;
let accountId: string;
let customer: number;

type Cobv = {
  status: string;
  calendario: { dataDeVencimento: string; validadeAposVencimento: number };
  devedor: { nome: string; cpf?: string; cnpj?: string };
  valor: { original: string; multa?: { modalidade: number; valorPerc: string }; juros?: { modalidade: number; valorPerc: string } };
  pixCopiaECola: string;
};

type Created = { reference: string; total: string; due_date: string; txid: string; copy: string };

async function bolePix(body: Record<string, unknown> = {}): Promise<Created> {
  const reply = await invoke(createBoleto, routes.createBoleto, { headers: auth, body: { ...common(), customer, ...body } });
  expect(reply.status, reply.body).toBe(200);
  return (reply.json as { invoice: Created }).invoice;
}

const cobvOf = (txid: string) => environment.psp.cobvs.get(txid) as Cobv | undefined;
const cents = (money: string) => parseAmountToCents(money);
const dayAfter = (date: string) => new Date(Date.parse(`${date}T12:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  environment = await startApiPixEnvironment();
  ({ accountId, auth, customer } = await apiPixMerchant(environment));
}, 60_000);

afterAll(async () => {
  await environment?.stop();
});

describe('BolePix with an API Pix PSP', () => {
  it("registers the Pix half as a cobv: the boleto's total, due date, payer and rules in the standard's modalities; the copy is the PSP's", async () => {
    const created = await bolePix({ fine: 2, interest: 1, days_after_due: 15 });
    const cobv = cobvOf(created.txid);
    expect(cobv).toMatchObject({
      status: 'ATIVA',
      calendario: { dataDeVencimento: created.due_date, validadeAposVencimento: 15 },
      valor: { original: created.total, multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 3, valorPerc: '1.00' } },
    });
    expect(cobv?.devedor.nome.length).toBeGreaterThan(0);
    expect(cobv?.devedor.cpf ?? cobv?.devedor.cnpj).toMatch(/^[0-9A-Z]{11,14}$/);
    expect(created.copy).toBe(cobv?.pixCopiaECola);
    const stored = await invoiceByTxid(getRuntime(), created.txid);
    // The boleto's provider is the invoice's; the Pix half's is recorded on it.
    expect(stored).toMatchObject({ method: 'boleto', provider: 'simulated', pix: { txid: created.txid, provider: 'apipix' } });
    expect(String(stored?.GSI2PK)).toMatch(/^RAILS#/);
  });

  it('paid by Pix one day late: the callback is read back and the exact amount due credited; the boleto written off; a cent less is not credited', async () => {
    const boletos = paymentProvider(getRuntime().config) as SimulatedProvider;
    const created = await bolePix({ fine: 2, interest: 1, days_after_due: 5 });
    const late = dayAfter(created.due_date);
    const due = amountDue(cents(created.total), { fineBasisPoints: 200, interestBasisPointsAMonth: 100, daysAfterDue: 5 }, created.due_date, late);
    if (!due.payable) throw new Error('one day late is within the window');
    const before = await storedBalanceCents(accountId);
    const short = environment.psp.pay(created.txid, { valor: formatCents(due.dueCents - 1), horario: `${late}T15:00:00.000Z` });
    expect(JSON.parse((await environment.psp.notify([short])).body)).toEqual({ received: true, charges: 1, applied: 0 });
    expect(await storedBalanceCents(accountId)).toBe(before);

    const other = await bolePix({ fine: 2, interest: 1, days_after_due: 5 });
    const exact = environment.psp.pay(other.txid, { valor: formatCents(due.dueCents), horario: `${late}T15:00:00.000Z` });
    expect(JSON.parse((await environment.psp.notify([exact])).body)).toEqual({ received: true, charges: 1, applied: 1 });
    expect(await storedBalanceCents(accountId)).toBe(before + due.dueCents);
    expect(await invoiceByTxid(getRuntime(), other.txid)).toMatchObject({ status: 'PAID', paidRail: 'pix', paidAmountCents: due.dueCents });
    expect(boletos.writtenOff.has(other.reference)).toBe(true);
    // The read-back went to /cobv, never to /cob.
    const reads = environment.psp.requests.filter((r) => r.method === 'GET' && r.path.includes(other.txid));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => r.path.includes('/cobv/'))).toBe(true);
  }, 30_000);

  it('paid by boleto: the cobv is withdrawn at the PSP (PATCH status REMOVIDA_PELO_USUARIO_RECEBEDOR), the boleto credited once', async () => {
    const created = await bolePix();
    const before = await storedBalanceCents(accountId);
    const paid = await notifyHere('boleto-paid', { reference: created.reference });
    expect(paid.json).toMatchObject({ applied: true });
    expect(cobvOf(created.txid)?.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    const patches = environment.psp.requestBodies.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/cobv/${created.txid}`));
    expect(patches.map((r) => r.body)).toEqual([{ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }]);
    expect(await storedBalanceCents(accountId)).toBe(before + cents(created.total));
  }, 30_000);
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brazilDate } from '../../../../../shared/domain/brazil-dates';
import { apiPixProviderWith, type ApiPixProvider } from '../../../../../shared/adapters/providers/apipix/adapter';
import type { ApiPixClient } from '../../../../../shared/adapters/providers/apipix/client';
import { cobvRequestBody } from '../../../../../shared/adapters/providers/apipix/cobv';
import { ProviderError, ProviderRejectedError, type PixDueChargeRequest } from '../../../../../shared/ports/payment-provider';
import { generateApiPixCertificates, type ApiPixCertificates } from '../../../../support/apipix-certificates';
import { startTestPsp, testPspClient, type TestPsp } from '../../../../support/apipix-psp';

/**
 * The API Pix adapter's due-date charges (dueCharges: PUT, PATCH and GET /cobv/{txid}) against the
 * loopback test PSP behind mutual TLS (test/support/apipix-psp.ts), which validates every body with the
 * standard's own schemas (test/fixtures/apipix/cobv-schemas.json).
 */

const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'apipix', 'cobv-schemas.json'), 'utf8')) as {
  request: { put: object };
};
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validatePut = ajv.compile(fixture.request.put);

let certificates: ApiPixCertificates;
let psp: TestPsp;
let client: ApiPixClient;
let adapter: ApiPixProvider;

/** A client of the test PSP (its own token cache and agent), answering within `timeoutMs`. */
function clientOf(timeoutMs: number): ApiPixClient {
  return testPspClient(psp, certificates, timeoutMs);
}

beforeAll(async () => {
  certificates = await generateApiPixCertificates();
  psp = await startTestPsp({ certificates });
  client = clientOf(1_000);
  adapter = apiPixProviderWith({ pixKey: psp.pixKey }, client);
});

afterAll(async () => {
  await psp.close();
});

let counter = 0;
/** A fresh 32-character txid. */
function newTxid(): string {
  counter += 1;
  return `cobvadapter${Date.now().toString(36)}${String(counter).padStart(4, '0')}`.padEnd(32, 'x').slice(0, 32);
}

function request(overrides: Partial<PixDueChargeRequest> = {}): PixDueChargeRequest {
  return {
    reference: 'INV-ABCDEF',
    txid: newTxid(),
    amountCents: 12345,
    dueDate: brazilDate(new Date(Date.now() + 10 * 86_400_000)),
    merchantName: 'Loja Teste',
    payer: { name: 'Fulano de Tal', document: '12345678909' },
    late: { fineBasisPoints: 200, interestBasisPointsAMonth: 100, daysAfterDue: 30 },
    ...overrides,
  };
}

type Held = { status: string; revisao: number; location: string; pixCopiaECola: string };
const held = (txid: string) => psp.cobvs.get(txid) as Held | undefined;
const calls = (txid: string) => psp.requests.filter((r) => r.path === `/v2/cobv/${txid}`).map((r) => `${r.method} ${r.status}`);

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );
}

describe('dueCharges.create', () => {
  it('PUTs the cobv under the txid (a body the standard accepts) and answers the charge the PSP created', async () => {
    for (const document of ['12345678909', '11222333000181']) {
      const due = request({ payer: { name: 'Fulano de Tal', document } });
      const charge = await adapter.dueCharges.create(due);
      const stored = held(due.txid);
      expect(charge).toEqual({ txid: due.txid, location: stored?.location, copy: stored?.pixCopiaECola });
      expect(stored?.status).toBe('ATIVA');
      const sent = psp.requestBodies.filter((r) => r.method === 'PUT' && r.path === `/v2/cobv/${due.txid}`);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.body).toEqual(cobvRequestBody(due, psp.pixKey));
      expect(validatePut(sent[0]?.body), ajv.errorsText(validatePut.errors)).toBe(true);
      expect(calls(due.txid)).toEqual(['PUT 201']);
    }
  });

  it('after an answer lost on the way back, the retry meets the txid in use, reads it back and answers the first charge (the PSP holds one)', async () => {
    const due = request();
    psp.fail({ method: 'PUT', path: new RegExp(`/cobv/${due.txid}$`), times: 1, mode: 'lost' });
    expect(await rejectionOf(adapter.dueCharges.create(due))).toBeInstanceOf(ProviderError);
    const first = held(due.txid);
    expect(first?.status).toBe('ATIVA');
    const charge = await adapter.dueCharges.create(due);
    expect(charge).toEqual({ txid: due.txid, location: first?.location, copy: first?.pixCopiaECola });
    expect(held(due.txid)).toBe(first);
    expect(held(due.txid)?.revisao).toBe(0);
    expect(calls(due.txid)).toEqual(['PUT timeout', 'PUT 400', 'GET 200']);
  });

  it('after a PSP failure (500) or a request that never arrived (timeout), the retry creates the one charge', async () => {
    for (const mode of ['error500', 'timeout'] as const) {
      const due = request();
      psp.fail({ method: 'PUT', path: new RegExp(`/cobv/${due.txid}$`), times: 1, mode });
      const error = await rejectionOf(adapter.dueCharges.create(due));
      expect(error, mode).toBeInstanceOf(ProviderError);
      expect(error, mode).not.toBeInstanceOf(ProviderRejectedError);
      expect(held(due.txid), mode).toBeUndefined();
      const charge = await adapter.dueCharges.create(due);
      expect(charge.location, mode).toBe(held(due.txid)?.location);
      expect(calls(due.txid), mode).toEqual([mode === 'error500' ? 'PUT 500' : 'PUT timeout', 'PUT 201']);
    }
  });

  it('refuses (ProviderRejectedError 400) a txid already used by another charge, and leaves that one as it was', async () => {
    const due = request();
    const first = await adapter.dueCharges.create(due);
    for (const other of [{ amountCents: 12346 }, { late: { fineBasisPoints: 100, interestBasisPointsAMonth: 100, daysAfterDue: 30 } }]) {
      const error = await rejectionOf(adapter.dueCharges.create({ ...due, ...other }));
      expect(error, JSON.stringify(other)).toBeInstanceOf(ProviderRejectedError);
      expect((error as ProviderRejectedError).status).toBe(400);
      expect((error as Error).message).toBe('Cobrança inválida. O txid informado já está em uso.');
    }
    expect(held(due.txid)?.location).toBe(first.location);
    expect(held(due.txid)?.revisao).toBe(0);
  });

  it('refuses a txid used by an immediate charge (/cob)', async () => {
    const txid = newTxid();
    const cob = await client.call('PUT', `/cob/${txid}`, { calendario: { expiracao: 3600 }, valor: { original: '123.45' }, chave: psp.pixKey });
    expect(cob.status).toBe(201);
    const error = await rejectionOf(adapter.dueCharges.create(request({ txid })));
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect(psp.cobvs.has(txid)).toBe(false);
  });

  it('refuses with 422 what the PSP refuses with violations (a due date already past)', async () => {
    const due = request({ dueDate: brazilDate(new Date(Date.now() - 3 * 86_400_000)) });
    const error = await rejectionOf(adapter.dueCharges.create(due));
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).status).toBe(422);
    expect((error as Error).message).toContain('cobv.calendario.dataDeVencimento: O campo cobv.calendario.dataDeVencimento é anterior à data de criação');
    expect(psp.cobvs.has(due.txid)).toBe(false);
  });

  it('sends nothing for a request the standard cannot carry (it throws first)', async () => {
    const due = request({ payer: { name: 'Fulano de Tal', document: '123' } });
    await expect(adapter.dueCharges.create(due)).rejects.toThrow(/devedor/);
    expect(calls(due.txid)).toEqual([]);
  });
});

describe('dueCharges.lookup', () => {
  it('reads an active charge, unknown txids as undefined', async () => {
    const due = request();
    await adapter.dueCharges.create(due);
    await expect(adapter.dueCharges.lookup(due.txid)).resolves.toEqual({ txid: due.txid, status: 'ACTIVE', amountCents: 12345, payments: [] });
    await expect(adapter.dueCharges.lookup(newTxid())).resolves.toBeUndefined();
  });

  it('reads a charge paid late with its larger amount, and one returned', async () => {
    const due = request();
    await adapter.dueCharges.create(due);
    const payment = psp.pay(due.txid, { valor: '126.31', horario: '2030-01-02T13:00:00.000Z' });
    await expect(adapter.dueCharges.lookup(due.txid)).resolves.toEqual({
      txid: due.txid,
      status: 'COMPLETED',
      amountCents: 12345,
      payments: [{ endToEndId: payment.endToEndId, amountCents: 12631, paidAt: new Date('2030-01-02T13:00:00.000Z'), refundedCents: 0 }],
    });
    psp.refund(due.txid);
    const refunded = await adapter.dueCharges.lookup(due.txid);
    expect(refunded?.payments).toEqual([
      { endToEndId: payment.endToEndId, amountCents: 12631, paidAt: new Date('2030-01-02T13:00:00.000Z'), refundedCents: 12631, refundedAt: expect.any(Date) },
    ]);
  });

  it('fails (ProviderError) when the PSP fails', async () => {
    const txid = newTxid();
    psp.fail({ method: 'GET', path: new RegExp(`/cobv/${txid}$`), times: 1, mode: 'error500' });
    expect(await rejectionOf(adapter.dueCharges.lookup(txid))).toBeInstanceOf(ProviderError);
  });
});

describe('dueCharges.remove', () => {
  it('withdraws an active charge (REMOVIDA_PELO_USUARIO_RECEBEDOR), and again answers removed', async () => {
    const due = request();
    await adapter.dueCharges.create(due);
    await expect(adapter.dueCharges.remove(due.txid)).resolves.toBe('removed');
    expect(held(due.txid)).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
    expect(psp.requestBodies.filter((r) => r.method === 'PATCH' && r.path === `/v2/cobv/${due.txid}`).map((r) => r.body)).toEqual([
      { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
    ]);
    await expect(adapter.dueCharges.remove(due.txid)).resolves.toBe('removed');
    expect(calls(due.txid)).toEqual(['PUT 201', 'PATCH 200', 'PATCH 400', 'GET 200']);
    expect(held(due.txid)?.revisao).toBe(1);
    await expect(adapter.dueCharges.lookup(due.txid)).resolves.toMatchObject({ status: 'REMOVED' });
  });

  it('answers removed for a charge the PSP removed itself (expired)', async () => {
    const due = request();
    await adapter.dueCharges.create(due);
    psp.remove(due.txid);
    await expect(adapter.dueCharges.remove(due.txid)).resolves.toBe('removed');
    expect(held(due.txid)?.status).toBe('REMOVIDA_PELO_PSP');
  });

  it('answers paid for a paid charge, which stays paid', async () => {
    const due = request();
    await adapter.dueCharges.create(due);
    psp.pay(due.txid);
    await expect(adapter.dueCharges.remove(due.txid)).resolves.toBe('paid');
    expect(held(due.txid)?.status).toBe('CONCLUIDA');
  });

  it('answers unknown for a txid the PSP does not know', async () => {
    const txid = newTxid();
    await expect(adapter.dueCharges.remove(txid)).resolves.toBe('unknown');
    expect(calls(txid)).toEqual(['PATCH 404', 'GET 404']);
  });

  it('fails (ProviderError) when the PSP fails, or refuses a charge it still holds active', async () => {
    const due = request();
    await adapter.dueCharges.create(due);
    psp.fail({ method: 'PATCH', path: new RegExp(`/cobv/${due.txid}$`), times: 1, mode: 'error500' });
    const failed = await rejectionOf(adapter.dueCharges.remove(due.txid));
    expect(failed).toBeInstanceOf(ProviderError);
    expect((failed as Error).message).toContain('HTTP 500');
    psp.fail({ method: 'PATCH', path: new RegExp(`/cobv/${due.txid}$`), times: 1, mode: { status: 409, body: { title: 'Conflito' } } });
    const refused = await rejectionOf(adapter.dueCharges.remove(due.txid));
    expect(refused).toBeInstanceOf(ProviderError);
    expect((refused as Error).message).toContain('ATIVA');
    expect(held(due.txid)?.status).toBe('ATIVA');
  });
});

describe('the test PSP refuses what the standard refuses', () => {
  it('answers 400 with violacoes to a PUT body the schema refuses, and creates nothing', async () => {
    const due = request();
    const body = cobvRequestBody(due, psp.pixKey);
    for (const [bad, propriedade] of [
      [{ ...body, calendario: { ...body.calendario, dataDeVencimento: '2030-02-30' } }, 'cobv.calendario.dataDeVencimento'],
      [{ ...body, calendario: { dataDeVencimento: '10/05/2030' } }, 'cobv.calendario.dataDeVencimento'],
      [{ ...body, calendario: { ...body.calendario, validadeAposVencimento: 2_147_483_648 } }, 'cobv.calendario.validadeAposVencimento'],
      [{ ...body, devedor: { cpf: body.devedor.nome, nome: 'Fulano' } }, 'cobv.devedor'],
      [{ ...body, devedor: { cpf: '12345678909', cnpj: '11222333000181', nome: 'Fulano' } }, 'cobv.devedor'],
      [{ ...body, valor: { ...body.valor, multa: { modalidade: 3, valorPerc: '2.00' } } }, 'cobv.valor.multa.modalidade'],
      [{ ...body, valor: { ...body.valor, juros: { modalidade: 9, valorPerc: '1.00' } } }, 'cobv.valor.juros.modalidade'],
      [{ ...body, valor: { original: '123.4' } }, 'cobv.valor.original'],
      [{ ...body, valor: { original: '0.00' } }, 'cobv.valor.original'],
      [{ calendario: body.calendario, valor: body.valor, chave: body.chave }, 'cobv.devedor'],
      [{ ...body, chave: 'someone-else@example.com' }, 'cobv.chave'],
    ] as const) {
      const reply = await client.call('PUT', `/cobv/${due.txid}`, bad);
      expect(reply.status, propriedade).toBe(400);
      expect(reply.body, propriedade).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida', status: 400 });
      expect(
        (reply.body as { violacoes: Array<{ propriedade: string }> }).violacoes.map((v) => v.propriedade),
        propriedade,
      ).toContain(propriedade);
    }
    expect(psp.cobvs.has(due.txid)).toBe(false);
    expect((await client.call('PUT', `/cobv/${due.txid}`, body)).status).toBe(201);
  });

  it('answers 400 to a PATCH the schema refuses, and to a withdrawal with other changes', async () => {
    const due = request();
    await adapter.dueCharges.create(due);
    const badStatus = await client.call('PATCH', `/cobv/${due.txid}`, { status: 'CONCLUIDA' });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body).toMatchObject({ violacoes: [{ propriedade: 'cobv.status' }] });
    const mixed = await client.call('PATCH', `/cobv/${due.txid}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', valor: { original: '1.00' } });
    expect(mixed.status).toBe(400);
    expect(held(due.txid)).toMatchObject({ status: 'ATIVA', revisao: 0 });
    const revised = await client.call('PATCH', `/cobv/${due.txid}`, { valor: { original: '130.00' } });
    expect(revised.status).toBe(200);
    expect(held(due.txid)).toMatchObject({ status: 'ATIVA', revisao: 1, valor: { original: '130.00', multa: { modalidade: 2, valorPerc: '2.00' } } });
  });
});

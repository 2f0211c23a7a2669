import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brazilDate } from '../../../../../shared/domain/brazil-dates';
import type { PixDueChargeRequest } from '../../../../../shared/ports/payment-provider';
import type { ApiPixClient } from '../../../../../shared/adapters/providers/apipix/client';
import {
  cobvRequestBody,
  cobvSchema,
  FINE_MODALITY_PERCENT,
  INTEREST_MODALITY_PERCENT_A_MONTH_CALENDAR_DAYS,
  isSameCobv,
  pixChargeOfCobv,
  pixChargeStateOfCobv,
  type Cobv,
} from '../../../../../shared/adapters/providers/apipix/cobv';
import { generateApiPixCertificates } from '../../../../support/apipix-certificates';
import { startTestPsp, testPspClient, type TestPsp } from '../../../../support/apipix-psp';

/**
 * The /cobv body builder against the standard's own request schema (test/fixtures/apipix/cobv-schemas.json,
 * extracted from bacen/pix-api with every $ref inlined), its refusals of what the standard cannot carry,
 * and the test PSP's answers against the standard's answer schemas, read by the gateway's parser.
 */

type Fixture = {
  source: { repository: string; commit: string };
  errata: unknown[];
  request: { put: object; patch: object };
  answer: { created: object; complete: object };
  problem: object;
};

const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'apipix', 'cobv-schemas.json'), 'utf8')) as Fixture;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validatePut = ajv.compile(fixture.request.put);
const validatePatch = ajv.compile(fixture.request.patch);
const validateCreated = ajv.compile(fixture.answer.created);
const validateComplete = ajv.compile(fixture.answer.complete);
const validateProblem = ajv.compile(fixture.problem);

/** The schema's errors as text (empty when it validates), so a failure says why. */
function errorsOf(validate: ValidateFunction, value: unknown): string {
  return validate(value) ? '' : ajv.errorsText(validate.errors);
}

const TXID = 'BOLABCDEFabcdefghijklmnopqrstuvw';
const PIX_KEY = '7d9f0335-8dcc-4054-9bf9-0dbd61d36906';
const CPF = '12345678909';
const CNPJ = '11222333000181';

function request(overrides: Partial<PixDueChargeRequest> = {}): PixDueChargeRequest {
  return {
    reference: 'INV-ABCDEF',
    txid: TXID,
    amountCents: 12345,
    dueDate: '2030-05-10',
    merchantName: 'Loja Teste',
    payer: { name: 'Fulano de Tal', document: CPF },
    late: { fineBasisPoints: 200, interestBasisPointsAMonth: 100, daysAfterDue: 30 },
    ...overrides,
  };
}

function cobv(fields: Record<string, unknown> = {}): Cobv {
  return cobvSchema.parse({
    calendario: { criacao: '2030-05-01T12:00:00.000Z', dataDeVencimento: '2030-05-10', validadeAposVencimento: 30 },
    txid: TXID,
    revisao: 0,
    loc: { id: 1, location: 'psp.example/qr/v2/cobv/abc', tipoCob: 'cobv', criacao: '2030-05-01T12:00:00.000Z', txid: TXID },
    location: 'psp.example/qr/v2/cobv/abc',
    status: 'ATIVA',
    devedor: { cpf: CPF, nome: 'Fulano de Tal' },
    valor: { original: '123.45', multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 3, valorPerc: '1.00' } },
    chave: PIX_KEY,
    pixCopiaECola: '00020101021226...6304ABCD',
    ...fields,
  });
}

describe('the cobv schemas fixture', () => {
  it('names the commit of bacen/pix-api it was taken from, and its errata', () => {
    expect(fixture.source.repository).toBe('https://github.com/bacen/pix-api');
    expect(fixture.source.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(fixture.errata).toHaveLength(3);
    expect(JSON.stringify(fixture)).not.toContain('"$ref"');
  });
});

describe('cobvRequestBody', () => {
  it('builds the body the standard describes: due date, validity after it, payer, total, fine and interest, key', () => {
    const body = cobvRequestBody(request(), PIX_KEY);
    expect(body).toEqual({
      calendario: { dataDeVencimento: '2030-05-10', validadeAposVencimento: 30 },
      devedor: { cpf: CPF, nome: 'Fulano de Tal' },
      valor: { original: '123.45', multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 3, valorPerc: '1.00' } },
      chave: PIX_KEY,
    });
    expect(FINE_MODALITY_PERCENT).toBe(2);
    expect(INTEREST_MODALITY_PERCENT_A_MONTH_CALENDAR_DAYS).toBe(3);
  });

  it("validates against the standard's PUT /cobv schema, fine and interest zero or not, CPF or CNPJ", () => {
    for (const document of [CPF, CNPJ]) {
      for (const fineBasisPoints of [0, 1, 150, 200]) {
        for (const interestBasisPointsAMonth of [0, 1, 33, 100]) {
          for (const daysAfterDue of [0, 30, 60]) {
            const what = JSON.stringify({ document: document.length, fineBasisPoints, interestBasisPointsAMonth, daysAfterDue });
            const body = cobvRequestBody(
              request({ payer: { name: 'Empresa Ltda', document }, late: { fineBasisPoints, interestBasisPointsAMonth, daysAfterDue } }),
              PIX_KEY,
            );
            expect(errorsOf(validatePut, body), what).toBe('');
            expect(body.devedor, what).toEqual(document === CPF ? { cpf: CPF, nome: 'Empresa Ltda' } : { cnpj: CNPJ, nome: 'Empresa Ltda' });
            expect(body.calendario.validadeAposVencimento, what).toBe(daysAfterDue);
            expect('multa' in body.valor, what).toBe(fineBasisPoints > 0);
            expect('juros' in body.valor, what).toBe(interestBasisPointsAMonth > 0);
          }
        }
      }
    }
  });

  it('sends an alphanumeric CNPJ (as the customers store it, capital letters) as devedor.cnpj, which the standard accepts', () => {
    const body = cobvRequestBody(request({ payer: { name: 'Empresa Ltda', document: '12ABC34501DE35' } }), PIX_KEY);
    expect(body.devedor).toEqual({ cnpj: '12ABC34501DE35', nome: 'Empresa Ltda' });
    expect(errorsOf(validatePut, body)).toBe('');
  });

  it('writes the fine and interest percentages with two decimals (basis points are hundredths of a percent)', () => {
    const body = cobvRequestBody(request({ late: { fineBasisPoints: 150, interestBasisPointsAMonth: 33, daysAfterDue: 5 } }), PIX_KEY);
    expect(body.valor.multa).toEqual({ modalidade: 2, valorPerc: '1.50' });
    expect(body.valor.juros).toEqual({ modalidade: 3, valorPerc: '0.33' });
    const tiny = cobvRequestBody(request({ late: { fineBasisPoints: 1, interestBasisPointsAMonth: 1, daysAfterDue: 0 } }), PIX_KEY);
    expect(tiny.valor).toEqual({ original: '123.45', multa: { modalidade: 2, valorPerc: '0.01' }, juros: { modalidade: 3, valorPerc: '0.01' } });
    const none = cobvRequestBody(request({ late: { fineBasisPoints: 0, interestBasisPointsAMonth: 0, daysAfterDue: 0 } }), PIX_KEY);
    expect(none.valor).toEqual({ original: '123.45' });
  });

  it('carries the limits of the standard: the largest amount, a 200-character name, the largest int32 validity, a 77-character key', () => {
    const largest = cobvRequestBody(
      request({
        amountCents: 999_999_999_999,
        payer: { name: '😀'.repeat(200), document: CNPJ },
        late: { fineBasisPoints: 0, interestBasisPointsAMonth: 0, daysAfterDue: 2_147_483_647 },
      }),
      'k'.repeat(77),
    );
    expect(largest.valor.original).toBe('9999999999.99');
    expect(largest.calendario.validadeAposVencimento).toBe(2_147_483_647);
    expect(errorsOf(validatePut, largest)).toBe('');
    expect(cobvRequestBody(request({ amountCents: 1 }), PIX_KEY).valor.original).toBe('0.01');
    expect(cobvRequestBody(request({ dueDate: '2032-02-29' }), PIX_KEY).calendario.dataDeVencimento).toBe('2032-02-29');
  });

  it('trims the name', () => {
    expect(cobvRequestBody(request({ payer: { name: '  Fulano  ', document: CPF } }), PIX_KEY).devedor).toEqual({ cpf: CPF, nome: 'Fulano' });
  });

  const refusals: Array<[string, PixDueChargeRequest, RegExp, string?]> = [
    ['a zero amount', request({ amountCents: 0 }), /valor\.original/],
    ['a negative amount', request({ amountCents: -100 }), /valor\.original/],
    ['an amount in fractions of a cent', request({ amountCents: 100.5 }), /valor\.original/],
    ['an amount past 10 integer digits', request({ amountCents: 1_000_000_000_000 }), /valor\.original/],
    ['an unsafe amount', request({ amountCents: Number.MAX_SAFE_INTEGER + 2 }), /valor\.original/],
    ['a date of another format', request({ dueDate: '10/05/2030' }), /calendario\.dataDeVencimento/],
    ['a date without zero padding', request({ dueDate: '2030-5-10' }), /calendario\.dataDeVencimento/],
    ['a day the month does not have', request({ dueDate: '2030-02-29' }), /calendario\.dataDeVencimento/],
    ['a month 13', request({ dueDate: '2030-13-01' }), /calendario\.dataDeVencimento/],
    ['a date and time', request({ dueDate: '2030-05-10T00:00:00Z' }), /calendario\.dataDeVencimento/],
    ['an empty date', request({ dueDate: '' }), /calendario\.dataDeVencimento/],
    ['a name of 201 characters', request({ payer: { name: 'n'.repeat(201), document: CPF } }), /devedor\.nome/],
    ['a blank name', request({ payer: { name: '   ', document: CPF } }), /devedor\.nome/],
    ['a document of 10 digits', request({ payer: { name: 'Fulano', document: '1234567890' } }), /devedor\.cpf/],
    ['a document of 12 digits', request({ payer: { name: 'Fulano', document: '123456789012' } }), /devedor\.cpf/],
    ['a document of 15 digits', request({ payer: { name: 'Fulano', document: '112223330001810' } }), /devedor\.cnpj/],
    ['a formatted CPF', request({ payer: { name: 'Fulano', document: '123.456.789-09' } }), /devedor\.cpf/],
    ['a CNPJ with lower-case letters', request({ payer: { name: 'Fulano', document: '11222333abcd81' } }), /devedor\.cnpj/],
    ['an empty document', request({ payer: { name: 'Fulano', document: '' } }), /devedor\.cpf/],
    ['a negative validity', request({ late: { fineBasisPoints: 0, interestBasisPointsAMonth: 0, daysAfterDue: -1 } }), /validadeAposVencimento/],
    ['a validity past int32', request({ late: { fineBasisPoints: 0, interestBasisPointsAMonth: 0, daysAfterDue: 2_147_483_648 } }), /validadeAposVencimento/],
    ['a validity in fractions of a day', request({ late: { fineBasisPoints: 0, interestBasisPointsAMonth: 0, daysAfterDue: 1.5 } }), /validadeAposVencimento/],
    ['a negative fine', request({ late: { fineBasisPoints: -1, interestBasisPointsAMonth: 0, daysAfterDue: 1 } }), /valor\.multa/],
    ['a fine in fractions of a basis point', request({ late: { fineBasisPoints: 0.5, interestBasisPointsAMonth: 0, daysAfterDue: 1 } }), /valor\.multa/],
    ['negative interest', request({ late: { fineBasisPoints: 0, interestBasisPointsAMonth: -1, daysAfterDue: 1 } }), /valor\.juros/],
    ['interest in fractions of a basis point', request({ late: { fineBasisPoints: 0, interestBasisPointsAMonth: 1.5, daysAfterDue: 1 } }), /valor\.juros/],
    ['a short txid', request({ txid: 'a'.repeat(25) }), /txid/],
    ['a long txid', request({ txid: 'a'.repeat(36) }), /txid/],
    ['a txid with a dash', request({ txid: `${'a'.repeat(30)}-b` }), /txid/],
    ['an empty key', request(), /chave/, ''],
    ['a key of 78 characters', request(), /chave/, 'k'.repeat(78)],
  ];

  for (const [what, refused, field, key] of refusals) {
    it(`throws naming the field for ${what}`, () => {
      expect(() => cobvRequestBody(refused, key ?? PIX_KEY)).toThrow(field);
    });
  }

  it('never puts the payer document or name in its error', () => {
    const name = 'Beltrano Secreto da Silva';
    for (const [payer, field] of [
      [{ name, document: '123456789' }, /devedor/],
      [{ name: `${name}${'x'.repeat(200)}`, document: CPF }, /devedor\.nome/],
    ] as const) {
      let message = '';
      try {
        cobvRequestBody(request({ payer }), PIX_KEY);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(field);
      expect(message).not.toContain('123456789');
      expect(message).not.toContain('Beltrano');
    }
  });

  it('agrees with the schema on the edges: what it refuses, the schema refuses too', () => {
    // What the builder refuses, the schema refuses too, field by field (the body built by hand).
    const base = cobvRequestBody(request(), PIX_KEY);
    expect(errorsOf(validatePut, { ...base, calendario: { ...base.calendario, dataDeVencimento: '2030-02-29' } })).toMatch(/dataDeVencimento/);
    expect(errorsOf(validatePut, { ...base, calendario: { ...base.calendario, validadeAposVencimento: 2_147_483_648 } })).toMatch(/validadeAposVencimento/);
    expect(errorsOf(validatePut, { ...base, devedor: { cpf: CPF, nome: 'n'.repeat(201) } })).toMatch(/devedor/);
    expect(errorsOf(validatePut, { ...base, devedor: { cpf: '1234567890', nome: 'Fulano' } })).toMatch(/devedor/);
    expect(errorsOf(validatePut, { ...base, devedor: { cnpj: '112223330001810', nome: 'Fulano' } })).toMatch(/devedor/);
    expect(errorsOf(validatePut, { ...base, chave: 'k'.repeat(78) })).toMatch(/chave/);
    expect(errorsOf(validatePut, { ...base, valor: { original: '12.3' } })).toMatch(/original/);
  });
});

describe('cobvSchema, pixChargeOfCobv, pixChargeStateOfCobv', () => {
  it('reads the charge: txid, location and BR Code; loc.location when there is no location', () => {
    expect(pixChargeOfCobv(cobv())).toEqual({ txid: TXID, location: 'psp.example/qr/v2/cobv/abc', copy: '00020101021226...6304ABCD' });
    expect(pixChargeOfCobv(cobv({ location: undefined }))?.location).toBe('psp.example/qr/v2/cobv/abc');
    expect(pixChargeOfCobv(cobv({ pixCopiaECola: undefined }))).toBeUndefined();
    expect(pixChargeOfCobv(cobv({ location: undefined, loc: undefined }))).toBeUndefined();
  });

  it('reads the modalities as numbers, written as numbers or digit strings', () => {
    expect(cobv({ valor: { original: '1.00', multa: { modalidade: '2', valorPerc: '2.00' } } }).valor.multa).toEqual({ modalidade: 2, valorPerc: '2.00' });
    expect(cobvSchema.safeParse({ ...cobv(), valor: { original: '1.00', juros: { modalidade: 'x', valorPerc: '1.00' } } }).success).toBe(false);
    expect(cobvSchema.safeParse({ ...cobv(), valor: { original: '1,00' } }).success).toBe(false);
  });

  it('maps the statuses as the immediate charge does, and refuses an unknown one', () => {
    const expected = { ATIVA: 'ACTIVE', CONCLUIDA: 'COMPLETED', REMOVIDA_PELO_USUARIO_RECEBEDOR: 'REMOVED', REMOVIDA_PELO_PSP: 'REMOVED' } as const;
    for (const [status, mapped] of Object.entries(expected)) {
      expect(pixChargeStateOfCobv(cobv({ status })), status).toEqual({ txid: TXID, status: mapped, amountCents: 12345, payments: [] });
    }
    for (const status of ['EXPIRADA', 'constructor', '']) expect(pixChargeStateOfCobv(cobv({ status })), status).toBeUndefined();
  });

  it('reads a late payment of more than the original, and its returns', () => {
    const state = pixChargeStateOfCobv(
      cobv({
        status: 'CONCLUIDA',
        pix: [
          {
            endToEndId: 'E99999008203005150000abcdefghijk',
            txid: TXID,
            valor: '126.31',
            horario: '2030-05-15T13:00:00.000Z',
            devolucoes: [
              {
                id: 'd1',
                rtrId: 'D99999008203005160000abcdefghijk',
                valor: '100.00',
                horario: { solicitacao: '2030-05-16T10:00:00.000Z' },
                status: 'DEVOLVIDO',
              },
              {
                id: 'd2',
                rtrId: 'D99999008203005160000abcdefghijl',
                valor: '26.31',
                horario: { solicitacao: '2030-05-16T11:00:00.000Z' },
                status: 'NAO_REALIZADO',
              },
            ],
          },
        ],
      }),
    );
    expect(state).toEqual({
      txid: TXID,
      status: 'COMPLETED',
      amountCents: 12345,
      payments: [
        {
          endToEndId: 'E99999008203005150000abcdefghijk',
          amountCents: 12631,
          paidAt: new Date('2030-05-15T13:00:00.000Z'),
          refundedCents: 10000,
          refundedAt: new Date('2030-05-16T10:00:00.000Z'),
        },
      ],
    });
  });
});

describe('isSameCobv', () => {
  const body = cobvRequestBody(request(), PIX_KEY);

  it('is the same charge with the same amount, key, due date, document and late terms; fields left out are not compared', () => {
    expect(isSameCobv(cobv(), body)).toBe(true);
    expect(isSameCobv(cobv({ chave: undefined, calendario: undefined, devedor: undefined }), body)).toBe(true);
    const withoutLateTerms = cobvRequestBody(request({ late: { fineBasisPoints: 0, interestBasisPointsAMonth: 0, daysAfterDue: 30 } }), PIX_KEY);
    expect(isSameCobv(cobv({ valor: { original: '123.45' } }), withoutLateTerms)).toBe(true);
  });

  it('is another charge when any of them differs', () => {
    const others: Array<Record<string, unknown>> = [
      { valor: { original: '123.46', multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 3, valorPerc: '1.00' } } },
      { chave: 'someone-else@example.com' },
      { calendario: { dataDeVencimento: '2030-05-11' } },
      { devedor: { cpf: '98765432100', nome: 'Fulano de Tal' } },
      { devedor: { cnpj: CNPJ, nome: 'Fulano de Tal' } },
      { valor: { original: '123.45', juros: { modalidade: 3, valorPerc: '1.00' } } },
      { valor: { original: '123.45', multa: { modalidade: 1, valorPerc: '2.00' }, juros: { modalidade: 3, valorPerc: '1.00' } } },
      { valor: { original: '123.45', multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 2, valorPerc: '1.00' } } },
      { valor: { original: '123.45', multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 3, valorPerc: '0.99' } } },
    ];
    for (const fields of others) expect(isSameCobv(cobv(fields), body), JSON.stringify(fields)).toBe(false);
  });
});

describe("the test PSP's /cobv answers", () => {
  let psp: TestPsp;
  let client: ApiPixClient;
  let counter = 0;
  const newTxid = () => `cobvschema${Date.now().toString(36)}${String((counter += 1)).padStart(4, '0')}`.padEnd(32, 'x').slice(0, 32);
  const dueDate = () => brazilDate(new Date(Date.now() + 10 * 86_400_000));

  beforeAll(async () => {
    const certificates = await generateApiPixCertificates();
    psp = await startTestPsp({ certificates });
    client = testPspClient(psp, certificates, 5_000);
  });

  afterAll(async () => {
    await psp.close();
  });

  it("validate against the standard's answer schemas and parse: created, paid late and returned, withdrawn", async () => {
    for (const document of [CPF, CNPJ]) {
      const txid = newTxid();
      const body = cobvRequestBody(request({ txid, dueDate: dueDate(), payer: { name: 'Fulano de Tal', document } }), psp.pixKey);
      const created = await client.call('PUT', `/cobv/${txid}`, body);
      expect(created.status).toBe(201);
      expect(errorsOf(validateCreated, created.body)).toBe('');
      expect(errorsOf(validateComplete, created.body)).toBe('');
      const parsed = cobvSchema.parse(created.body);
      expect(pixChargeOfCobv(parsed)).toEqual({
        txid,
        location: (psp.cobvs.get(txid) as { location: string }).location,
        copy: (psp.cobvs.get(txid) as { pixCopiaECola: string }).pixCopiaECola,
      });
      expect(isSameCobv(parsed, body)).toBe(true);
      expect(created.body).toMatchObject({
        calendario: { criacao: expect.any(String), ...body.calendario },
        devedor: body.devedor,
        valor: body.valor,
        chave: psp.pixKey,
      });
    }

    const paid = newTxid();
    expect((await client.call('PUT', `/cobv/${paid}`, cobvRequestBody(request({ txid: paid, dueDate: dueDate() }), psp.pixKey))).status).toBe(201);
    psp.pay(paid, { valor: '126.31' });
    psp.refund(paid, { valor: '26.31' });
    const read = await client.call('GET', `/cobv/${paid}`);
    expect(read.status).toBe(200);
    expect(errorsOf(validateComplete, read.body)).toBe('');
    expect(pixChargeStateOfCobv(cobvSchema.parse(read.body))).toMatchObject({
      status: 'COMPLETED',
      amountCents: 12345,
      payments: [{ amountCents: 12631, refundedCents: 2631 }],
    });

    const withdrawn = newTxid();
    expect((await client.call('PUT', `/cobv/${withdrawn}`, cobvRequestBody(request({ txid: withdrawn, dueDate: dueDate() }), psp.pixKey))).status).toBe(201);
    const patch = { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' };
    expect(errorsOf(validatePatch, patch)).toBe('');
    const removed = await client.call('PATCH', `/cobv/${withdrawn}`, patch);
    expect(removed.status).toBe(200);
    expect(errorsOf(validateCreated, removed.body)).toBe('');
    expect(removed.body).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
    expect(pixChargeStateOfCobv(cobvSchema.parse(removed.body))?.status).toBe('REMOVED');
  });

  it("answers refusals as the standard's problem details", async () => {
    const txid = newTxid();
    const refused = await client.call('PUT', `/cobv/${txid}`, {
      ...cobvRequestBody(request({ txid, dueDate: dueDate() }), psp.pixKey),
      devedor: { cpf: '123', nome: 'X' },
    });
    expect(refused.status).toBe(400);
    expect(errorsOf(validateProblem, refused.body)).toBe('');
    expect(refused.body).toMatchObject({
      type: 'https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida',
      status: 400,
      violacoes: [{ razao: 'O objeto cobv.devedor não respeita o _schema_.', propriedade: 'cobv.devedor' }],
    });
    const unknown = await client.call('GET', `/cobv/${newTxid()}`);
    expect(unknown.status).toBe(404);
    expect(errorsOf(validateProblem, unknown.body)).toBe('');
    expect(unknown.body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/CobVNaoEncontrada', status: 404 });
  });
});

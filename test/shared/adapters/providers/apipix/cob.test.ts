import { describe, expect, it } from 'vitest';
import type { PixChargeRequest } from '../../../../../shared/ports/payment-provider';
import { expirationSeconds, lastPixDueDate, MAX_EXPIRATION_SECONDS } from '../../../../../shared/domain/pix-expiration';
import {
  callbackTxids,
  cobRequestBody,
  cobSchema,
  hasViolations,
  isSameCharge,
  pixCallbackSchema,
  pixChargeOf,
  pixChargeStateOf,
  problemMessage,
  type Cob,
  type CobRequest,
} from '../../../../../shared/adapters/providers/apipix/cob';

const TXID = 'INVABCDEFabcdefghijklmnopqrstuvw';
const PIX_KEY = '7d9f0335-8dcc-4054-9bf9-0dbd61d36906';
const NOW = new Date('2024-05-10T12:00:00.000Z');

function request(overrides: Partial<PixChargeRequest> = {}): PixChargeRequest {
  return {
    reference: 'INV-ABCDEF',
    txid: TXID,
    amountCents: 12345,
    dueDate: '2024-05-10',
    merchantName: 'Loja Teste',
    payer: {},
    ...overrides,
  };
}

function cob(fields: Record<string, unknown> = {}): Cob {
  return cobSchema.parse({
    txid: TXID,
    status: 'ATIVA',
    valor: { original: '123.45' },
    chave: PIX_KEY,
    location: 'psp.example/qr/v2/abc',
    pixCopiaECola: '00020101021226...6304ABCD',
    ...fields,
  });
}

describe("the last due date API Pix's int32 expiracao carries, in a /cob body (shared/domain/pix-expiration.ts)", () => {
  it('never puts an expiracao past int32 in a /cob body (the route refuses the date first)', () => {
    const now = new Date('2026-11-28T12:00:00.000Z');
    expect(cobRequestBody(request({ dueDate: lastPixDueDate(now) }), PIX_KEY, now).calendario.expiracao).toBeLessThanOrEqual(MAX_EXPIRATION_SECONDS);
    expect(() => cobRequestBody(request({ dueDate: '2099-01-01' }), PIX_KEY, now)).toThrow(/int32/);
  });
});

describe('cobRequestBody', () => {
  it('sends the amount as a 2-decimal string, the key, the expiry and the payer note', () => {
    const body = cobRequestBody(request(), PIX_KEY, NOW);
    expect(body).toEqual({
      calendario: { expiracao: expirationSeconds('2024-05-10', NOW) },
      valor: { original: '123.45' },
      chave: PIX_KEY,
      solicitacaoPagador: 'Loja Teste INV-ABCDEF',
    });
    expect(body).not.toHaveProperty('devedor');
    expect(cobRequestBody(request({ amountCents: 100 }), PIX_KEY, NOW).valor.original).toBe('1.00');
    expect(cobRequestBody(request({ amountCents: 5 }), PIX_KEY, NOW).valor.original).toBe('0.05');
    expect(cobRequestBody(request({ amountCents: 1_000_000_00 }), PIX_KEY, NOW).valor.original).toBe('1000000.00');
  });

  it('names the payer as devedor by CPF (11 digits) or CNPJ (14 digits) when the name is known too', () => {
    const cpf = cobRequestBody(request({ payer: { document: '12345678909', name: 'Fulano de Tal' } }), PIX_KEY, NOW);
    expect(cpf.devedor).toEqual({ cpf: '12345678909', nome: 'Fulano de Tal' });
    const cnpj = cobRequestBody(request({ payer: { document: '11222333000181', name: 'Empresa Ltda' } }), PIX_KEY, NOW);
    expect(cnpj.devedor).toEqual({ cnpj: '11222333000181', nome: 'Empresa Ltda' });
  });

  it('trims the name and keeps at most 200 characters', () => {
    const body = cobRequestBody(request({ payer: { document: '12345678909', name: `  ${'n'.repeat(250)}  ` } }), PIX_KEY, NOW);
    expect(body.devedor).toEqual({ cpf: '12345678909', nome: 'n'.repeat(200) });
  });

  it('leaves devedor out without both a document and a name, or with a document of another length', () => {
    for (const payer of [
      { document: '12345678909' },
      { name: 'Fulano de Tal' },
      { document: '12345678909', name: '   ' },
      { document: '12345678909', name: '' },
      { document: '123456789012', name: 'Fulano de Tal' },
      { document: '1234567890', name: 'Fulano de Tal' },
      { document: '', name: 'Fulano de Tal' },
      { email: 'a@example.com' },
    ]) {
      expect(cobRequestBody(request({ payer }), PIX_KEY, NOW), JSON.stringify(payer)).not.toHaveProperty('devedor');
    }
  });

  it('keeps solicitacaoPagador within 140 characters', () => {
    const body = cobRequestBody(request({ merchantName: 'M'.repeat(200) }), PIX_KEY, NOW);
    expect(body.solicitacaoPagador).toHaveLength(140);
    expect(body.solicitacaoPagador).toBe('M'.repeat(140));
    const exact = cobRequestBody(request({ merchantName: 'M'.repeat(129) }), PIX_KEY, NOW);
    expect(exact.solicitacaoPagador).toBe(`${'M'.repeat(129)} INV-ABCDEF`);
    expect(exact.solicitacaoPagador).toHaveLength(140);
  });
});

describe('pixChargeOf', () => {
  it('takes the txid, the location and the BR Code of the cob', () => {
    expect(pixChargeOf(cob())).toEqual({ txid: TXID, location: 'psp.example/qr/v2/abc', copy: '00020101021226...6304ABCD' });
  });

  it('reads the location from loc.location when the cob has no location', () => {
    const charge = pixChargeOf(cob({ location: undefined, loc: { location: 'psp.example/qr/v2/loc' } }));
    expect(charge?.location).toBe('psp.example/qr/v2/loc');
  });

  it('prefers location over loc.location', () => {
    expect(pixChargeOf(cob({ loc: { location: 'psp.example/qr/v2/loc' } }))?.location).toBe('psp.example/qr/v2/abc');
  });

  it('is undefined without a BR Code or without any location', () => {
    expect(pixChargeOf(cob({ pixCopiaECola: undefined }))).toBeUndefined();
    expect(pixChargeOf(cob({ pixCopiaECola: '' }))).toBeUndefined();
    expect(pixChargeOf(cob({ location: undefined }))).toBeUndefined();
  });
});

describe('isSameCharge', () => {
  const body: CobRequest = cobRequestBody(request(), PIX_KEY, NOW);

  it('is the same charge with the same amount and key, or no key in the answer', () => {
    expect(isSameCharge(cob(), body)).toBe(true);
    expect(isSameCharge(cob({ chave: undefined }), body)).toBe(true);
  });

  it('is another charge with another amount or another key', () => {
    expect(isSameCharge(cob({ valor: { original: '123.46' } }), body)).toBe(false);
    expect(isSameCharge(cob({ valor: { original: '12.34' } }), body)).toBe(false);
    expect(isSameCharge(cob({ chave: 'someone-else@example.com' }), body)).toBe(false);
  });
});

describe('pixChargeStateOf', () => {
  it('maps the API Pix statuses', () => {
    const expected = {
      ATIVA: 'ACTIVE',
      CONCLUIDA: 'COMPLETED',
      REMOVIDA_PELO_USUARIO_RECEBEDOR: 'REMOVED',
      REMOVIDA_PELO_PSP: 'REMOVED',
    } as const;
    for (const [status, mapped] of Object.entries(expected)) {
      expect(pixChargeStateOf(cob({ status })), status).toEqual({ txid: TXID, status: mapped, amountCents: 12345, payments: [] });
    }
  });

  it('is undefined for an unknown status', () => {
    for (const status of ['', 'ativa', 'EXPIRADA', 'REMOVIDA', 'CONCLUIDA ', 'REMOVIDA_PELO_PAGADOR']) {
      expect(pixChargeStateOf(cob({ status })), status).toBeUndefined();
    }
  });

  it('is undefined for a status named like a property of every object', () => {
    for (const status of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__']) {
      expect(pixChargeStateOf(cob({ status }))?.status, status).toBeUndefined();
    }
  });

  it('reads each payment with its amount and time', () => {
    const state = pixChargeStateOf(
      cob({
        status: 'CONCLUIDA',
        pix: [{ endToEndId: 'E1', txid: TXID, valor: '123.45', horario: '2024-05-10T13:00:00.000Z' }],
      }),
    );
    expect(state?.payments).toEqual([{ endToEndId: 'E1', amountCents: 12345, paidAt: new Date('2024-05-10T13:00:00.000Z'), refundedCents: 0 }]);
    expect(state?.payments[0]).not.toHaveProperty('refundedAt');
  });

  it('counts only DEVOLVIDO refunds, and dates the refund by the last one settled', () => {
    const state = pixChargeStateOf(
      cob({
        status: 'CONCLUIDA',
        pix: [
          {
            endToEndId: 'E1',
            valor: '123.45',
            horario: '2024-05-10T13:00:00.000Z',
            devolucoes: [
              { id: 'd1', valor: '10.00', status: 'DEVOLVIDO', horario: { solicitacao: '2024-05-10T14:00:00Z', liquidacao: '2024-05-10T14:00:05Z' } },
              { id: 'd2', valor: '20.00', status: 'EM_PROCESSAMENTO', horario: { solicitacao: '2024-05-10T18:00:00Z' } },
              { id: 'd3', valor: '30.00', status: 'NAO_REALIZADO', horario: { solicitacao: '2024-05-10T19:00:00Z' } },
              { id: 'd4', valor: '3.45', status: 'DEVOLVIDO', horario: { solicitacao: '2024-05-10T16:00:00Z' } },
              { id: 'd5', valor: '0.01', status: 'DEVOLVIDO', horario: { solicitacao: '2024-05-10T15:00:00Z', liquidacao: '2024-05-10T15:00:01Z' } },
            ],
          },
        ],
      }),
    );
    expect(state?.payments).toHaveLength(1);
    expect(state?.payments[0]?.refundedCents).toBe(1000 + 345 + 1);
    expect(state?.payments[0]?.refundedAt).toEqual(new Date('2024-05-10T16:00:00Z'));
  });

  it('counts nothing refunded when no return is DEVOLVIDO', () => {
    const state = pixChargeStateOf(
      cob({
        status: 'CONCLUIDA',
        pix: [
          {
            endToEndId: 'E1',
            valor: '123.45',
            horario: '2024-05-10T13:00:00Z',
            devolucoes: [{ valor: '123.45', status: 'EM_PROCESSAMENTO', horario: { solicitacao: '2024-05-10T14:00:00Z' } }],
          },
        ],
      }),
    );
    expect(state?.payments[0]?.refundedCents).toBe(0);
    expect(state?.payments[0]).not.toHaveProperty('refundedAt');
  });

  it('is undefined when a payment has no readable time', () => {
    const state = pixChargeStateOf(
      cob({
        status: 'CONCLUIDA',
        pix: [
          { endToEndId: 'E1', valor: '123.45', horario: '2024-05-10T13:00:00Z' },
          { endToEndId: 'E2', valor: '1.00', horario: 'yesterday' },
        ],
      }),
    );
    expect(state).toBeUndefined();
  });
});

describe('callbackTxids', () => {
  const pix = (txid: string | undefined, endToEndId = `E${Math.random().toString(36).slice(2)}`) => ({
    endToEndId,
    ...(txid === undefined ? {} : { txid }),
    valor: '1.00',
    horario: '2024-05-10T13:00:00Z',
  });
  const other = 'OTHERtxid0123456789abcdefghijk';

  it('lists each txid once, in order of first appearance', () => {
    const callback = pixCallbackSchema.parse({ pix: [pix(TXID), pix(other), pix(TXID)] });
    expect(callbackTxids(callback)).toEqual([TXID, other]);
  });

  it('skips a Pix without a txid and txids of another shape', () => {
    const callback = pixCallbackSchema.parse({
      pix: [pix(undefined), pix(''), pix('short'), pix(`${'a'.repeat(24)}-x`), pix('a'.repeat(25)), pix('a'.repeat(26)), pix('b'.repeat(35)), pix(TXID)],
    });
    expect(callbackTxids(callback)).toEqual(['a'.repeat(26), 'b'.repeat(35), TXID]);
  });

  it('lists nothing when no Pix names a charge', () => {
    expect(callbackTxids(pixCallbackSchema.parse({ pix: [pix(undefined)] }))).toEqual([]);
  });
});

describe('problemMessage', () => {
  it('joins title, detail and the violations', () => {
    expect(
      problemMessage({
        type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida',
        title: 'Cobrança inválida.',
        status: 400,
        detail: 'A requisição não respeita o _schema_.',
        violacoes: [
          { razao: 'O campo cob.valor.original é zero.', propriedade: 'cob.valor.original' },
          { razao: 'Sem propriedade.' },
          { propriedade: 'cob.chave' },
          'not an object',
          null,
        ],
      }),
    ).toBe('Cobrança inválida. A requisição não respeita o _schema_. cob.valor.original: O campo cob.valor.original é zero. Sem propriedade.');
  });

  it('skips empty or non-text parts', () => {
    expect(problemMessage({ title: '', detail: 'Only the detail.' })).toBe('Only the detail.');
    expect(problemMessage({ title: 42, detail: 'Detail.' })).toBe('Detail.');
  });

  it('keeps at most 300 characters', () => {
    const message = problemMessage({ title: 'T'.repeat(200), detail: 'D'.repeat(200) });
    expect(message).toHaveLength(300);
    expect(message).toBe(`${'T'.repeat(200)} ${'D'.repeat(99)}`);
  });

  it('falls back to a fixed sentence when the body says nothing', () => {
    for (const body of [undefined, null, 'text', 42, {}, { title: '' }, { violacoes: 'x' }, []]) {
      expect(problemMessage(body), JSON.stringify(body)).toBe('The PSP refused the request');
    }
  });
});

describe('hasViolations', () => {
  it('is true only for a non-empty violacoes list', () => {
    expect(hasViolations({ violacoes: [{ razao: 'r', propriedade: 'p' }] })).toBe(true);
    expect(hasViolations({ violacoes: [] })).toBe(false);
    expect(hasViolations({ title: 'Cobrança inválida.' })).toBe(false);
    expect(hasViolations({ violacoes: 'many' })).toBe(false);
    expect(hasViolations({ violacoes: null })).toBe(false);
    expect(hasViolations(undefined)).toBe(false);
    expect(hasViolations(null)).toBe(false);
    expect(hasViolations('violacoes')).toBe(false);
  });
});

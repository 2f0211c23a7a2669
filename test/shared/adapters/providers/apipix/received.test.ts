import { describe, expect, it } from 'vitest';
import { RECEIVED_PAGE_SIZE, receivedPixPageOf, receivedPixPath } from '../../../../../shared/adapters/providers/apipix/received';

const TXID = 'INVABCDEFabcdefghijklmnopqrstuvw';
const E2E_1 = 'E99999008202611271300abcdefghijk';
const E2E_2 = 'E99999008202611271400abcdefghijk';
const window = { from: new Date('2026-11-26T12:30:00.000Z'), to: new Date('2026-11-27T12:30:00.000Z') };

/** A PixConsultados body as the standard's example has it (parametros, paginacao, pix[]). */
/** The page asked is the first (paginaAtual 0, as consulted() answers). */
const pageZero = (body: unknown) => receivedPixPageOf(body, 0);

function consulted(pix: unknown[] | undefined, paging: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    parametros: {
      inicio: '2026-11-26T12:30:00.000Z',
      fim: '2026-11-27T12:30:00.000Z',
      paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 3, quantidadeTotalDeItens: 250, ...paging },
    },
    ...(pix ? { pix } : {}),
  };
}

const paidCharge = {
  endToEndId: E2E_1,
  txid: TXID,
  valor: '123.45',
  chave: 'pix+key@example.com',
  horario: '2026-11-27T13:00:00.000Z',
  infoPagador: 'obrigado',
};
const keyTransfer = { endToEndId: E2E_2, valor: '0.07', horario: '2026-11-27T11:00:00-03:00' };

describe('receivedPixPath: the query of one page of GET /pix', () => {
  it('asks the window (inicio, fim in RFC 3339) and the page, 100 items a page, URL-encoded', () => {
    expect(RECEIVED_PAGE_SIZE).toBe(100);
    const path = receivedPixPath(window, 2);
    expect(path).toBe('/pix?inicio=2026-11-26T12%3A30%3A00.000Z&fim=2026-11-27T12%3A30%3A00.000Z&paginacao.paginaAtual=2&paginacao.itensPorPagina=100');
    const [base, search] = path.split('?');
    expect(base).toBe('/pix');
    const query = new URLSearchParams(search);
    expect([...query.keys()].sort()).toEqual(['fim', 'inicio', 'paginacao.itensPorPagina', 'paginacao.paginaAtual']);
    expect(query.get('inicio')).toBe(window.from.toISOString());
    expect(query.get('fim')).toBe(window.to.toISOString());
    expect(query.get('paginacao.paginaAtual')).toBe('2');
    expect(query.get('paginacao.itensPorPagina')).toBe('100');
  });

  it('pages count from 0', () => {
    expect(new URLSearchParams(receivedPixPath(window, 0).split('?')[1]).get('paginacao.paginaAtual')).toBe('0');
  });
});

describe('receivedPixPageOf: one page of the Pix received', () => {
  it('reads each Pix: its end-to-end id, the txid when it paid a charge, amount in cents and time; pages = quantidadeDePaginas', () => {
    const page = pageZero(consulted([paidCharge, keyTransfer]));
    expect(page).toEqual({
      payments: [
        { endToEndId: E2E_1, txid: TXID, amountCents: 12_345, paidAt: new Date('2026-11-27T13:00:00.000Z') },
        { endToEndId: E2E_2, amountCents: 7, paidAt: new Date('2026-11-27T14:00:00.000Z') },
      ],
      pages: 3,
    });
    // A Pix without a txid has none (not an empty or undefined one).
    expect(page?.payments[1] && 'txid' in page.payments[1]).toBe(false);
    // An empty txid paid no charge either.
    expect(pageZero(consulted([{ ...paidCharge, txid: '' }]))?.payments[0]).toEqual({
      endToEndId: E2E_1,
      amountCents: 12_345,
      paidAt: new Date('2026-11-27T13:00:00.000Z'),
    });
  });

  it('refuses a page that is not the one asked (a PSP ignoring paginaAtual would have the other pages never checked)', () => {
    expect(receivedPixPageOf(consulted([paidCharge], { paginaAtual: 0 }), 1)).toBeUndefined();
    expect(receivedPixPageOf(consulted([paidCharge], { paginaAtual: 2 }), 2)?.payments).toHaveLength(1);
  });

  it('a page with no Pix (pix absent or empty) is an empty page, its count of pages as the PSP says', () => {
    expect(pageZero(consulted(undefined, { quantidadeDePaginas: 0, quantidadeTotalDeItens: 0 }))).toEqual({ payments: [], pages: 0 });
    expect(pageZero(consulted([], { quantidadeDePaginas: 1, quantidadeTotalDeItens: 0 }))).toEqual({ payments: [], pages: 1 });
  });

  it('refuses (undefined) what is not PixConsultados', () => {
    const { parametros } = consulted([]) as { parametros: { paginacao: Record<string, unknown> } };
    const paging = parametros.paginacao;
    for (const body of [
      undefined,
      null,
      'text',
      [],
      {},
      { pix: [paidCharge] },
      { parametros: {}, pix: [paidCharge] },
      consulted([paidCharge], { quantidadeDePaginas: undefined }),
      consulted([paidCharge], { quantidadeDePaginas: '3' }),
      consulted([paidCharge], { quantidadeDePaginas: -1 }),
      consulted([paidCharge], { quantidadeDePaginas: 1.5 }),
      consulted([paidCharge], { paginaAtual: -1 }),
      consulted([paidCharge], { itensPorPagina: 0 }),
      consulted([paidCharge], { quantidadeTotalDeItens: undefined }),
      { parametros: { paginacao: { ...paging, quantidadeDePaginas: 'x' } } },
      { ...consulted([]), pix: paidCharge },
      { ...consulted([]), pix: 'none' },
      consulted([{ ...paidCharge, endToEndId: undefined }]),
      consulted([{ ...paidCharge, endToEndId: '' }]),
      consulted([{ ...paidCharge, valor: undefined }]),
      consulted([{ ...paidCharge, valor: 123.45 }]),
      consulted([{ ...paidCharge, valor: '123.4' }]),
      consulted([{ ...paidCharge, valor: '-1.00' }]),
      consulted([{ ...paidCharge, valor: '1,00' }]),
      consulted([{ ...paidCharge, horario: undefined }]),
      consulted([{ ...paidCharge, horario: '' }]),
      consulted([{ ...paidCharge, txid: 42 }]),
      consulted([paidCharge, null]),
    ]) {
      expect(pageZero(body), JSON.stringify(body)).toBeUndefined();
    }
  });

  it('refuses the whole page when one Pix has a time that is not one (no Pix of the page is skipped unseen)', () => {
    for (const horario of ['yesterday', '2026-13-45T99:00:00Z', 'not a date at all']) {
      expect(pageZero(consulted([paidCharge, { ...keyTransfer, horario }])), horario).toBeUndefined();
    }
  });

  it('refuses fields past their bounds: endToEndId over 64, txid over 35, horario over 40, valor over 10 digits, more than 1000 Pix', () => {
    expect(pageZero(consulted([{ ...paidCharge, endToEndId: 'E'.repeat(64) }]))?.payments[0]?.endToEndId).toBe('E'.repeat(64));
    expect(pageZero(consulted([{ ...paidCharge, endToEndId: 'E'.repeat(65) }]))).toBeUndefined();
    expect(pageZero(consulted([{ ...paidCharge, txid: 'a'.repeat(35) }]))?.payments[0]?.txid).toBe('a'.repeat(35));
    expect(pageZero(consulted([{ ...paidCharge, txid: 'a'.repeat(36) }]))).toBeUndefined();
    // Both parse as a time: the 41-character one is refused for its length alone.
    expect(pageZero(consulted([{ ...paidCharge, horario: `2026-11-27T13:00:00.${'0'.repeat(19)}Z` }]))?.payments[0]?.paidAt).toEqual(
      new Date('2026-11-27T13:00:00.000Z'),
    );
    expect(pageZero(consulted([{ ...paidCharge, horario: `2026-11-27T13:00:00.${'0'.repeat(20)}Z` }]))).toBeUndefined();
    expect(pageZero(consulted([{ ...paidCharge, valor: '9999999999.99' }]))?.payments[0]?.amountCents).toBe(999_999_999_999);
    expect(pageZero(consulted([{ ...paidCharge, valor: '99999999999.99' }]))).toBeUndefined();
    const many = Array.from({ length: 1000 }, (_, i) => ({ ...keyTransfer, endToEndId: `E${i}` }));
    expect(pageZero(consulted(many))?.payments).toHaveLength(1000);
    expect(pageZero(consulted([...many, keyTransfer]))).toBeUndefined();
  });
});

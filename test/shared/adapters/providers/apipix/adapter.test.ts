import { describe, expect, it } from 'vitest';
import { API_PIX_PROVIDER, apiPixProviderWith } from '../../../../../shared/adapters/providers/apipix/adapter';
import type { ApiPixClient, ApiPixReply } from '../../../../../shared/adapters/providers/apipix/client';
import { expirationSeconds } from '../../../../../shared/domain/pix-expiration';
import { ProviderError, ProviderRejectedError, type PixChargeRequest } from '../../../../../shared/ports/payment-provider';

const TXID = 'INVABCDEFabcdefghijklmnopqrstuvw';
const PIX_KEY = 'pix+key@example.com';
const NOW = new Date('2024-05-10T12:00:00.000Z');

type Call = { method: string; path: string; body: unknown };

/** An API Pix client answering from a script, recording every call; a call past the script fails the test. */
function fakeClient(replies: ApiPixReply[]): ApiPixClient & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    call(method, path, body) {
      calls.push({ method, path, body });
      const reply = replies.shift();
      if (!reply) return Promise.reject(new Error(`unexpected call ${method} ${path}`));
      return Promise.resolve(reply);
    },
  };
}

function provider(replies: ApiPixReply[]) {
  const client = fakeClient(replies);
  return { client, adapter: apiPixProviderWith({ pixKey: PIX_KEY, now: () => NOW }, client) };
}

const request: PixChargeRequest = {
  reference: 'INV-ABCDEF',
  txid: TXID,
  amountCents: 12345,
  dueDate: '2024-05-10',
  merchantName: 'Loja Teste',
  payer: { document: '12345678909', name: 'Fulano de Tal' },
};

const cob = (fields: Record<string, unknown> = {}) => ({
  calendario: { criacao: '2024-05-10T12:00:00.000Z', expiracao: 3600 },
  txid: TXID,
  revisao: 0,
  loc: { id: 1, location: 'psp.example/qr/v2/abc', tipoCob: 'cob' },
  location: 'psp.example/qr/v2/abc',
  status: 'ATIVA',
  valor: { original: '123.45' },
  chave: PIX_KEY,
  pixCopiaECola: '00020101021226830014br.gov.bcb.pix2561psp.example/qr/v2/abc6304ABCD',
  ...fields,
});

const charge = { txid: TXID, location: 'psp.example/qr/v2/abc', copy: cob().pixCopiaECola };

const usedTxid = {
  status: 400,
  body: {
    type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida',
    title: 'Cobrança inválida.',
    status: 400,
    detail: 'O txid informado já está em uso.',
  },
};

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );
}

describe('apiPixProviderWith: charges.pix', () => {
  it('is named apipix and has the key', () => {
    const { adapter } = provider([]);
    expect(adapter.name).toBe(API_PIX_PROVIDER);
    expect(adapter.name).toBe('apipix');
    expect(adapter.pixKey).toBe(PIX_KEY);
  });

  it('PUTs the cob under the txid and answers the charge the PSP created (201)', async () => {
    const { adapter, client } = provider([{ status: 201, body: cob() }]);
    await expect(adapter.charges.pix(request)).resolves.toEqual(charge);
    expect(client.calls).toEqual([
      {
        method: 'PUT',
        path: `/cob/${TXID}`,
        body: {
          calendario: { expiracao: expirationSeconds('2024-05-10', NOW) },
          devedor: { cpf: '12345678909', nome: 'Fulano de Tal' },
          valor: { original: '123.45' },
          chave: PIX_KEY,
          solicitacaoPagador: 'Loja Teste INV-ABCDEF',
        },
      },
    ]);
  });

  it('accepts a 200 too', async () => {
    const { adapter } = provider([{ status: 200, body: cob() }]);
    await expect(adapter.charges.pix(request)).resolves.toEqual(charge);
  });

  it('fails when the PSP answers a created cob of another txid, without a BR Code or with an unexpected body', async () => {
    for (const body of [cob({ txid: 'OTHERabcdefghijklmnopqrstuvwxyz1' }), cob({ pixCopiaECola: undefined }), { status: 'ATIVA' }, 'created']) {
      const { adapter } = provider([{ status: 201, body }]);
      const error = await rejectionOf(adapter.charges.pix(request));
      expect(error, JSON.stringify(body)).toBeInstanceOf(ProviderError);
    }
  });

  it('answers the existing charge when the txid is taken by the same charge (one PUT, one GET)', async () => {
    const { adapter, client } = provider([usedTxid, { status: 200, body: cob() }]);
    await expect(adapter.charges.pix(request)).resolves.toEqual(charge);
    expect(client.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`PUT /cob/${TXID}`, `GET /cob/${TXID}`]);
    expect(client.calls[1]?.body).toBeUndefined();
  });

  it('refuses (400) when the txid is taken by a charge of another amount', async () => {
    const { adapter, client } = provider([usedTxid, { status: 200, body: cob({ valor: { original: '123.44' } }) }]);
    const error = await rejectionOf(adapter.charges.pix(request));
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).status).toBe(400);
    expect((error as ProviderRejectedError).message).toBe('Cobrança inválida. O txid informado já está em uso.');
    expect(client.calls.map((c) => c.method)).toEqual(['PUT', 'GET']);
  });

  it('refuses (400) when the txid is taken by a charge of another key', async () => {
    const { adapter } = provider([usedTxid, { status: 200, body: cob({ chave: 'someone@example.com' }) }]);
    const error = await rejectionOf(adapter.charges.pix(request));
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).status).toBe(400);
  });

  it('refuses (400) when the PSP refused and holds no charge under the txid', async () => {
    const { adapter } = provider([usedTxid, { status: 404, body: { title: 'Cobrança não encontrada.' } }]);
    const error = await rejectionOf(adapter.charges.pix(request));
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).status).toBe(400);
  });

  it('refuses with 422 when the PSP lists violations', async () => {
    const invalid = {
      status: 400,
      body: {
        title: 'Cobrança inválida.',
        detail: 'A requisição não respeita o _schema_.',
        violacoes: [{ razao: 'O campo cob.valor.original é zero.', propriedade: 'cob.valor.original' }],
      },
    };
    const { adapter } = provider([invalid, { status: 404, body: {} }]);
    const error = await rejectionOf(adapter.charges.pix(request));
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).status).toBe(422);
    expect((error as Error).message).toContain('cob.valor.original: O campo cob.valor.original é zero.');
  });

  it('refuses with 422 when the PSP answers 422', async () => {
    const { adapter } = provider([
      { status: 422, body: { title: 'Unprocessable' } },
      { status: 404, body: {} },
    ]);
    const error = await rejectionOf(adapter.charges.pix(request));
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).status).toBe(422);
  });

  it('fails (ProviderError, no lookup) when the PSP answers 500, 401, 403 or 429', async () => {
    for (const status of [500, 503, 401, 403, 429, 302]) {
      const { adapter, client } = provider([{ status, body: { title: 'Não autorizado' } }]);
      const error = await rejectionOf(adapter.charges.pix(request));
      expect(error, String(status)).toBeInstanceOf(ProviderError);
      expect(error, String(status)).not.toBeInstanceOf(ProviderRejectedError);
      expect((error as Error).message, String(status)).toContain(`HTTP ${status}`);
      expect(client.calls, String(status)).toHaveLength(1);
    }
  });

  it('fails (ProviderError) when the lookup after a refusal fails', async () => {
    const { adapter } = provider([usedTxid, { status: 500, body: {} }]);
    const error = await rejectionOf(adapter.charges.pix(request));
    expect(error).toBeInstanceOf(ProviderError);
  });
});

describe('apiPixProviderWith: lookupPixCharge', () => {
  it('escapes the txid in the path', async () => {
    const { adapter, client } = provider([{ status: 404, body: {} }]);
    await adapter.lookupPixCharge('a/b?c');
    expect(client.calls[0]?.path).toBe('/cob/a%2Fb%3Fc');
  });

  it('answers undefined for a charge the PSP does not know (404)', async () => {
    const { adapter, client } = provider([{ status: 404, body: { title: 'Cobrança não encontrada.' } }]);
    await expect(adapter.lookupPixCharge(TXID)).resolves.toBeUndefined();
    expect(client.calls).toEqual([{ method: 'GET', path: `/cob/${TXID}`, body: undefined }]);
  });

  it('answers the state of the charge with its payments', async () => {
    const paid = cob({
      status: 'CONCLUIDA',
      pix: [{ endToEndId: 'E99999008202405101300abcdefghijk', txid: TXID, valor: '123.45', horario: '2024-05-10T13:00:00.000Z' }],
    });
    const { adapter } = provider([{ status: 200, body: paid }]);
    await expect(adapter.lookupPixCharge(TXID)).resolves.toEqual({
      txid: TXID,
      status: 'COMPLETED',
      amountCents: 12345,
      payments: [{ endToEndId: 'E99999008202405101300abcdefghijk', amountCents: 12345, paidAt: new Date('2024-05-10T13:00:00.000Z'), refundedCents: 0 }],
    });
  });

  it('fails (ProviderError) on an unknown status', async () => {
    const { adapter } = provider([{ status: 200, body: cob({ status: 'EXPIRADA' }) }]);
    const error = await rejectionOf(adapter.lookupPixCharge(TXID));
    expect(error).toBeInstanceOf(ProviderError);
  });

  it('fails (ProviderError) on an unexpected body or answer', async () => {
    for (const reply of [
      { status: 200, body: { txid: TXID } },
      { status: 200, body: undefined },
      { status: 500, body: {} },
      { status: 401, body: {} },
      { status: 400, body: {} },
    ]) {
      const { adapter } = provider([reply]);
      const error = await rejectionOf(adapter.lookupPixCharge(TXID));
      expect(error, JSON.stringify(reply)).toBeInstanceOf(ProviderError);
    }
  });
});

describe('apiPixProviderWith: webhooks', () => {
  it('registers the webhook URL under the key (200 or 204)', async () => {
    for (const status of [200, 201, 204]) {
      const { adapter, client } = provider([{ status, body: undefined }]);
      await expect(adapter.registerWebhook('https://pay.example.com/provider/apipix/notifications/t')).resolves.toBeUndefined();
      expect(client.calls, String(status)).toEqual([
        { method: 'PUT', path: `/webhook/${encodeURIComponent(PIX_KEY)}`, body: { webhookUrl: 'https://pay.example.com/provider/apipix/notifications/t' } },
      ]);
    }
  });

  it('refuses (ProviderRejectedError) a webhook the PSP refuses (400)', async () => {
    const { adapter } = provider([{ status: 400, body: { title: 'Webhook inválido.', violacoes: [{ razao: 'r', propriedade: 'webhook.webhookUrl' }] } }]);
    const error = await rejectionOf(adapter.registerWebhook('not a url'));
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).status).toBe(422);
    const plain = provider([{ status: 400, body: { title: 'Webhook inválido.' } }]);
    const plainError = await rejectionOf(plain.adapter.registerWebhook('https://x.example'));
    expect(plainError).toBeInstanceOf(ProviderRejectedError);
    expect((plainError as ProviderRejectedError).status).toBe(400);
    expect((plainError as Error).message).toBe('Webhook inválido.');
  });

  it('fails (ProviderError) when the PSP fails the registration', async () => {
    for (const status of [500, 403]) {
      const { adapter } = provider([{ status, body: {} }]);
      const error = await rejectionOf(adapter.registerWebhook('https://x.example'));
      expect(error, String(status)).toBeInstanceOf(ProviderError);
    }
  });

  it('reads the registered webhook URL, or undefined when none is registered', async () => {
    const found = provider([{ status: 200, body: { webhookUrl: 'https://x.example/cb', chave: PIX_KEY } }]);
    await expect(found.adapter.registeredWebhook()).resolves.toBe('https://x.example/cb');
    expect(found.client.calls).toEqual([{ method: 'GET', path: `/webhook/${encodeURIComponent(PIX_KEY)}`, body: undefined }]);
    await expect(provider([{ status: 404, body: {} }]).adapter.registeredWebhook()).resolves.toBeUndefined();
    for (const reply of [
      { status: 200, body: {} },
      { status: 500, body: { webhookUrl: 'https://x.example/cb' } },
    ]) {
      const error = await rejectionOf(provider([reply]).adapter.registeredWebhook());
      expect(error, JSON.stringify(reply)).toBeInstanceOf(ProviderError);
    }
  });
});

describe('apiPixProviderWith: receivedPix (GET /pix)', () => {
  const window = { from: new Date('2024-05-09T12:00:00.000Z'), to: new Date('2024-05-10T12:00:00.000Z') };
  const listed = (pix: unknown[], quantidadeDePaginas = 2) => ({
    parametros: {
      inicio: window.from.toISOString(),
      fim: window.to.toISOString(),
      paginacao: { paginaAtual: 1, itensPorPagina: 100, quantidadeDePaginas, quantidadeTotalDeItens: 101 },
    },
    pix,
  });

  it('asks the window and page through the client and answers the page it parsed', async () => {
    const { adapter, client } = provider([
      {
        status: 200,
        body: listed([
          { endToEndId: 'E99999008202405101300abcdefghijk', txid: TXID, valor: '123.45', horario: '2024-05-10T11:00:00.000Z' },
          { endToEndId: 'E99999008202405101301abcdefghijk', valor: '5.00', horario: '2024-05-10T11:30:00.000Z' },
        ]),
      },
    ]);
    await expect(adapter.receivedPix(window, 1)).resolves.toEqual({
      payments: [
        { endToEndId: 'E99999008202405101300abcdefghijk', txid: TXID, amountCents: 12345, paidAt: new Date('2024-05-10T11:00:00.000Z') },
        { endToEndId: 'E99999008202405101301abcdefghijk', amountCents: 500, paidAt: new Date('2024-05-10T11:30:00.000Z') },
      ],
      pages: 2,
    });
    expect(client.calls).toEqual([
      {
        method: 'GET',
        path: '/pix?inicio=2024-05-09T12%3A00%3A00.000Z&fim=2024-05-10T12%3A00%3A00.000Z&paginacao.paginaAtual=1&paginacao.itensPorPagina=100',
        body: undefined,
      },
    ]);
  });

  it('fails (ProviderError) when the PSP fails or refuses the listing', async () => {
    for (const reply of [
      { status: 500, body: listed([]) },
      { status: 403, body: {} },
      { status: 401, body: {} },
      { status: 404, body: {} },
      { status: 201, body: listed([]) },
    ]) {
      const error = await rejectionOf(provider([reply]).adapter.receivedPix(window, 0));
      expect(error, JSON.stringify(reply)).toBeInstanceOf(ProviderError);
    }
  });

  it('fails (ProviderError) on an unexpected body (not PixConsultados, or a Pix with no valid time)', async () => {
    for (const body of [
      undefined,
      {},
      { pix: [] },
      listed([{ endToEndId: 'E1', valor: '1.00', horario: 'never' }]),
      listed([{ endToEndId: 'E1', valor: 1 }]),
    ]) {
      const error = await rejectionOf(provider([{ status: 200, body }]).adapter.receivedPix(window, 0));
      expect(error, JSON.stringify(body)).toBeInstanceOf(ProviderError);
    }
  });
});

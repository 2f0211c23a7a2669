import { describe, expect, it } from 'vitest';
import { CepUnavailableError } from '../../../../shared/ports/cep';
import { CEP_SERVICES, type Fetch, publicCepLookup } from '../../../../shared/adapters/cep/public';

type Reply = { status: number; body: unknown } | 'network-error' | 'hang';

/** A fetch that answers each service (by host) as told, recording the URLs asked and whether they were cancelled. */
function fakeFetch(replies: { brasilapi: Reply; viacep: Reply; widenet: Reply }): { fetcher: Fetch; asked: string[]; aborted: string[] } {
  const asked: string[] = [];
  const aborted: string[] = [];
  const fetcher: Fetch = (url, init) => {
    asked.push(url);
    const host = new URL(url).hostname;
    const reply = host.includes('brasilapi') ? replies.brasilapi : host.includes('viacep') ? replies.viacep : replies.widenet;
    init.signal.addEventListener('abort', () => aborted.push(url));
    if (reply === 'network-error') return Promise.reject(new TypeError('fetch failed'));
    if (reply === 'hang') return new Promise((_, reject) => init.signal.addEventListener('abort', () => reject(init.signal.reason)));
    return Promise.resolve(new Response(JSON.stringify(reply.body), { status: reply.status, headers: { 'content-type': 'application/json' } }));
  };
  return { fetcher, asked, aborted };
}

const BRASILAPI_PAULISTA = { cep: '01310100', state: 'SP', city: 'São Paulo', neighborhood: 'Bela Vista', street: 'Avenida Paulista', service: 'x' };
const VIACEP_PAULISTA = { cep: '01310-100', logradouro: 'Avenida Paulista', bairro: 'Bela Vista', localidade: 'São Paulo', uf: 'SP' };
const WIDENET_PAULISTA = { status: 200, ok: true, code: '01310-100', state: 'SP', city: 'São Paulo', district: 'Bela Vista', address: 'Avenida Paulista' };
const PAULISTA = { zipcode: '01310100', state: 'SP', city: 'São Paulo', district: 'Bela Vista', street: 'Avenida Paulista' };

describe('publicCepLookup (fetch, the public services at once)', () => {
  it("maps each service's answer to the same address", async () => {
    for (const replies of [
      { brasilapi: { status: 200, body: BRASILAPI_PAULISTA }, viacep: 'hang', widenet: 'hang' },
      { brasilapi: 'hang', viacep: { status: 200, body: VIACEP_PAULISTA }, widenet: 'hang' },
      { brasilapi: 'hang', viacep: 'hang', widenet: { status: 200, body: WIDENET_PAULISTA } },
    ] as const) {
      const { fetcher } = fakeFetch(replies);
      await expect(publicCepLookup(3000, fetcher).lookup('01310100')).resolves.toEqual(PAULISTA);
    }
  });

  it('asks every service for the CEP, takes the first address and cancels the rest', async () => {
    const { fetcher, asked, aborted } = fakeFetch({ brasilapi: 'hang', viacep: { status: 200, body: VIACEP_PAULISTA }, widenet: 'hang' });
    await publicCepLookup(3000, fetcher).lookup('01310100');
    expect(asked.sort()).toEqual(CEP_SERVICES.map((s) => s.url('01310100')).sort());
    expect(asked).toContain('https://cdn.apicep.com/file/apicep/01310-100.json');
    expect(aborted).toHaveLength(3);
  });

  it('answers null only when every service says the CEP does not exist', async () => {
    const { fetcher } = fakeFetch({
      brasilapi: { status: 404, body: {} },
      viacep: { status: 200, body: { erro: true } },
      widenet: { status: 200, body: { status: 404 } },
    });
    await expect(publicCepLookup(3000, fetcher).lookup('99999999')).resolves.toBeNull();
  });

  it('throws CepUnavailableError when one says not found and another is down (the CEP may exist)', async () => {
    const { fetcher } = fakeFetch({ brasilapi: { status: 404, body: {} }, viacep: 'network-error', widenet: { status: 503, body: {} } });
    const failure = await publicCepLookup(3000, fetcher)
      .lookup('01310100')
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(CepUnavailableError);
    expect((failure as Error).message).toMatch(/ViaCEP: fetch failed/);
    expect((failure as Error).message).toMatch(/WideNet: HTTP 503/);
  });

  it('throws CepUnavailableError past the time limit, having cancelled every request', async () => {
    const { fetcher, aborted } = fakeFetch({ brasilapi: 'hang', viacep: 'hang', widenet: 'hang' });
    const failure = await publicCepLookup(50, fetcher)
      .lookup('01310100')
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(CepUnavailableError);
    expect((failure as Error).message).toContain('timed out after 50 ms');
    expect(aborted).toHaveLength(3);
  });

  it('does not take an answer without state or city as an address', async () => {
    const { fetcher } = fakeFetch({
      brasilapi: { status: 200, body: { cep: '01310100' } },
      viacep: { status: 200, body: '<html>' },
      widenet: { status: 404, body: {} },
    });
    await expect(publicCepLookup(3000, fetcher).lookup('01310100')).rejects.toBeInstanceOf(CepUnavailableError);
  });
});

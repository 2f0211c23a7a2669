import { describe, expect, it } from 'vitest';
import { searchCep } from '../../../../shared/app/reference/search-cep';
import { CepUnavailableError, type CepLookup } from '../../../../shared/ports/cep';
import { CEP_CACHE_SECONDS, type CepAddress } from '../../../../shared/domain/cep';
import { NotFoundError, UpstreamError } from '../../../../shared/domain/errors';

const address: CepAddress = { zipcode: '01310100', state: 'SP', city: 'São Paulo', district: 'Bela Vista', street: 'Avenida Paulista' };
const lookup = (answer: CepAddress | null | Error): CepLookup & { asked: string[] } => {
  const asked: string[] = [];
  return {
    asked,
    lookup: async (cep) => {
      asked.push(cep);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
};

describe('search a CEP (use case)', () => {
  it('answers a fresh cached address without asking the source, and changes nothing', async () => {
    const source = lookup(null);
    const result = await searchCep({ cache: { get: async () => address }, lookup: source }, '01310100', 1_000);
    expect(result).toEqual({ answer: address, changes: [] });
    expect(source.asked).toEqual([]);
  });

  it('asks the source on a miss and caches what it found for 30 days', async () => {
    const result = await searchCep({ cache: { get: async () => undefined }, lookup: lookup(address) }, '01310100', 1_000);
    expect(result).toEqual({ answer: address, changes: [{ kind: 'cep.cached', address, expiresAt: 1_000 + CEP_CACHE_SECONDS }] });
    expect(CEP_CACHE_SECONDS).toBe(2_592_000);
  });

  it('unknown CEP: 404; every source down: upstream_unavailable', async () => {
    await expect(searchCep({ cache: { get: async () => undefined }, lookup: lookup(null) }, '99999999', 1)).rejects.toBeInstanceOf(NotFoundError);
    const down = searchCep({ cache: { get: async () => undefined }, lookup: lookup(new CepUnavailableError('timeout')) }, '01310100', 1);
    await expect(down).rejects.toBeInstanceOf(UpstreamError);
    await expect(down).rejects.toMatchObject({ code: 'upstream_unavailable' });
  });
});

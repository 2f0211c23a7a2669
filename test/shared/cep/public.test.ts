import { describe, expect, it } from 'vitest';
import { CepUnavailableError } from '../../../shared/cep/port';
import { isNotFound, publicCepLookup } from '../../../shared/cep/public';

type Search = NonNullable<Parameters<typeof publicCepLookup>[1]>;
type SearchOptions = Parameters<Search>[1];

/** cep-promise's rejection: a CepPromiseError with one entry per service in `errors`. */
function cepPromiseError(messages: string[]): Error & { errors: { message: string; service: string }[] } {
  return Object.assign(new Error('Todos os serviços de CEP retornaram erro.'), {
    errors: messages.map((message, i) => ({ message, service: ['brasilapi', 'viacep', 'widenet'][i] ?? 'other' })),
  });
}

function fakeSearch(outcome: () => ReturnType<Search>): { search: Search; calls: { cep: string; options: SearchOptions }[] } {
  const calls: { cep: string; options: SearchOptions }[] = [];
  const search: Search = (cep, options) => {
    calls.push({ cep, options });
    return outcome();
  };
  return { search, calls };
}

const PAULISTA = { cep: '01310-100', state: 'SP', city: 'São Paulo', neighborhood: 'Bela Vista', street: 'Avenida Paulista' };

describe('publicCepLookup', () => {
  it('maps the service answer: neighborhood to district, cep without the hyphen', async () => {
    const { search } = fakeSearch(() => Promise.resolve(PAULISTA));
    await expect(publicCepLookup(3000, search).lookup('01310100')).resolves.toEqual({
      zipcode: '01310100',
      state: 'SP',
      city: 'São Paulo',
      district: 'Bela Vista',
      street: 'Avenida Paulista',
    });
  });

  it('passes the CEP and the configured timeout to the search', async () => {
    const { search, calls } = fakeSearch(() => Promise.resolve(PAULISTA));
    await publicCepLookup(1234, search).lookup('01310100');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.cep).toBe('01310100');
    expect(calls[0]?.options.timeout).toBe(1234);
    expect(calls[0]?.options.providers.length).toBeGreaterThan(0);
  });

  it('answers null when every service says the CEP does not exist', async () => {
    const { search } = fakeSearch(() =>
      Promise.reject(cepPromiseError(['CEP NAO encontrado', 'CEP não encontrado na base do ViaCEP.', 'CEP não encontrado na base do WideNet.'])),
    );
    await expect(publicCepLookup(3000, search).lookup('99999999')).resolves.toBeNull();
  });

  it('throws CepUnavailableError when the services timed out or could not be reached', async () => {
    const { search } = fakeSearch(() =>
      Promise.reject(cepPromiseError(['network timeout at: https://brasilapi.com.br', 'Erro ao se conectar com o serviço ViaCEP.'])),
    );
    await expect(publicCepLookup(3000, search).lookup('01310100')).rejects.toBeInstanceOf(CepUnavailableError);
  });

  it('throws CepUnavailableError when one service says not found and another is down', async () => {
    const { search } = fakeSearch(() =>
      Promise.reject(cepPromiseError(['CEP não encontrado na base do ViaCEP.', 'Erro ao se conectar com o serviço WideNet.'])),
    );
    await expect(publicCepLookup(3000, search).lookup('01310100')).rejects.toBeInstanceOf(CepUnavailableError);
  });

  it('throws CepUnavailableError carrying the message when the rejection has no errors array', async () => {
    const { search } = fakeSearch(() => Promise.reject(new Error('socket hang up')));
    const failure = await publicCepLookup(3000, search)
      .lookup('01310100')
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(CepUnavailableError);
    expect((failure as Error).message).toContain('socket hang up');
  });

  it('throws CepUnavailableError when the rejection is not even an Error', async () => {
    const { search } = fakeSearch(() => Promise.reject('boom'));
    await expect(publicCepLookup(3000, search).lookup('01310100')).rejects.toBeInstanceOf(CepUnavailableError);
  });
});

describe('isNotFound', () => {
  it('is true when every message says not found (Portuguese, with or without the tilde, or English)', () => {
    expect(isNotFound(cepPromiseError(['CEP NAO encontrado']))).toBe(true);
    expect(isNotFound(cepPromiseError(['CEP não encontrado na base do ViaCEP.', 'CEP não encontrado na base do BrasilAPI.']))).toBe(true);
    expect(isNotFound(cepPromiseError(['CEP not found']))).toBe(true);
  });

  it('is false when a message is about the connection or a timeout', () => {
    expect(isNotFound(cepPromiseError(['Erro ao se conectar com o serviço ViaCEP.']))).toBe(false);
    expect(isNotFound(cepPromiseError(['CEP não encontrado na base do ViaCEP.', 'network timeout']))).toBe(false);
  });

  it('is false without a non-empty errors array', () => {
    expect(isNotFound(cepPromiseError([]))).toBe(false);
    expect(isNotFound(new Error('CEP não encontrado'))).toBe(false);
    expect(isNotFound({ errors: 'CEP não encontrado' })).toBe(false);
    expect(isNotFound(undefined)).toBe(false);
    expect(isNotFound(null)).toBe(false);
  });

  it('is false when an entry has no message', () => {
    expect(isNotFound({ errors: [{ message: 'CEP não encontrado' }, {}] })).toBe(false);
  });
});

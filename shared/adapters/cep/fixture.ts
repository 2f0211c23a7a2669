import { type CepAddress, type CepLookup, CepUnavailableError } from '../../ports/cep';

/** CEPs the fixture adapter knows (local runs and tests). */
export const FIXTURE_ADDRESSES: Readonly<Record<string, CepAddress>> = {
  '01310100': { zipcode: '01310100', state: 'SP', city: 'São Paulo', district: 'Bela Vista', street: 'Avenida Paulista' },
  '20040020': { zipcode: '20040020', state: 'RJ', city: 'Rio de Janeiro', district: 'Centro', street: 'Avenida Rio Branco' },
  '70040010': { zipcode: '70040010', state: 'DF', city: 'Brasília', district: 'Asa Norte', street: 'Setor Bancário Norte' },
  '30130010': { zipcode: '30130010', state: 'MG', city: 'Belo Horizonte', district: 'Centro', street: 'Praça Sete de Setembro' },
  '40020000': { zipcode: '40020000', state: 'BA', city: 'Salvador', district: 'Comércio', street: 'Avenida da França' },
};

/** The fixture adapter answers this CEP as if every public source were down (to exercise the 503). */
export const FIXTURE_UNAVAILABLE_CEP = '00000000';

export const fixtureCepLookup: CepLookup = {
  async lookup(cep) {
    if (cep === FIXTURE_UNAVAILABLE_CEP) throw new CepUnavailableError('simulated outage of every source');
    return FIXTURE_ADDRESSES[cep] ?? null;
  },
};

import { describe, expect, it } from 'vitest';
import { FIXTURE_ADDRESSES, FIXTURE_UNAVAILABLE_CEP, fixtureCepLookup } from '../../../../shared/adapters/cep/fixture';
import { CepUnavailableError } from '../../../../shared/ports/cep';
import { stateByUf } from '../../../../shared/domain/reference/states';

describe('fixtureCepLookup', () => {
  it('answers a known CEP with its address', async () => {
    await expect(fixtureCepLookup.lookup('01310100')).resolves.toEqual({
      zipcode: '01310100',
      state: 'SP',
      city: 'São Paulo',
      district: 'Bela Vista',
      street: 'Avenida Paulista',
    });
  });

  it('answers null for an unknown CEP', async () => {
    await expect(fixtureCepLookup.lookup('99999999')).resolves.toBeNull();
  });

  it('throws CepUnavailableError for the outage CEP 00000000', async () => {
    expect(FIXTURE_UNAVAILABLE_CEP).toBe('00000000');
    await expect(fixtureCepLookup.lookup(FIXTURE_UNAVAILABLE_CEP)).rejects.toBeInstanceOf(CepUnavailableError);
  });

  it('keys every address by its own 8-digit zipcode, in a known UF', () => {
    for (const [cep, address] of Object.entries(FIXTURE_ADDRESSES)) {
      expect(cep).toMatch(/^\d{8}$/);
      expect(address.zipcode).toBe(cep);
      expect(stateByUf(address.state)?.uf, cep).toBe(address.state);
    }
    expect(FIXTURE_ADDRESSES[FIXTURE_UNAVAILABLE_CEP]).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/platform/config';
import { fixtureCepLookup } from '../../../shared/adapters/cep/fixture';
import { cepLookupFor } from '../../../shared/wiring/cep-lookup';

const REQUIRED = { TABLE_NAME: 't', MASTER_KEY_SECRET_ID: 's' };

describe('cepLookupFor', () => {
  it('uses the fixture when CEP_PROVIDER is fixture', async () => {
    const lookup = cepLookupFor(parseConfig({ ...REQUIRED, CEP_PROVIDER: 'fixture' }));
    expect(lookup).toBe(fixtureCepLookup);
    await expect(lookup.lookup('01310100')).resolves.toMatchObject({ city: 'São Paulo' });
  });

  it('uses the public services by default', () => {
    const lookup = cepLookupFor(parseConfig(REQUIRED));
    expect(lookup).not.toBe(fixtureCepLookup);
    expect(typeof lookup.lookup).toBe('function');
  });
});

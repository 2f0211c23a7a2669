import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/platform/config';

const REQUIRED = { TABLE_NAME: 'payment-gateway-test', MASTER_KEY_SECRET_ID: 'payment-gateway/test/master-key' };

describe('parseConfig: CEP lookup', () => {
  it('defaults to the public services with a 3000 ms timeout', () => {
    expect(parseConfig(REQUIRED).cep).toEqual({ provider: 'public', timeoutMs: 3000 });
  });

  it('accepts the fixture provider and public explicitly', () => {
    expect(parseConfig({ ...REQUIRED, CEP_PROVIDER: 'fixture' }).cep.provider).toBe('fixture');
    expect(parseConfig({ ...REQUIRED, CEP_PROVIDER: 'public' }).cep.provider).toBe('public');
  });

  it.each(['other', 'Fixture', ''])('rejects CEP_PROVIDER=%j, naming it', (value) => {
    expect(() => parseConfig({ ...REQUIRED, CEP_PROVIDER: value })).toThrow(/CEP_PROVIDER/);
  });

  it('reads CEP_TIMEOUT_MS as a number', () => {
    expect(parseConfig({ ...REQUIRED, CEP_TIMEOUT_MS: '1500' }).cep.timeoutMs).toBe(1500);
  });

  it.each(['0', '-1', '2.5', 'soon'])('rejects CEP_TIMEOUT_MS=%j, naming it', (value) => {
    expect(() => parseConfig({ ...REQUIRED, CEP_TIMEOUT_MS: value })).toThrow(/CEP_TIMEOUT_MS/);
  });
});

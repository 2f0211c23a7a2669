import { describe, expect, it } from 'vitest';
import type { SecretSource } from '../../../../shared/adapters/secrets/master-key';
import { API_PIX_CREDENTIALS_TTL_MS, apiPixCredentialsSource, parseApiPixCredentials } from '../../../../shared/adapters/secrets/apipix-credentials';

const CLIENT_SECRET = 'cs-9f8e7d6c5b4a-never-show-me';
const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIBcertBODYcertBODY\n-----END CERTIFICATE-----\n';
const PRIVATE_KEY = '-----BEGIN PRIVATE KEY-----\nMIGHkeyBODYkeyBODY\n-----END PRIVATE KEY-----\n';
const CA = '-----BEGIN CERTIFICATE-----\nMIIBcaBODYcaBODY\n-----END CERTIFICATE-----\n';

const secret = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ client_secret: CLIENT_SECRET, certificate: CERTIFICATE, private_key: PRIVATE_KEY, ...fields });

function errorOf(run: () => unknown): Error {
  try {
    run();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}

describe('parseApiPixCredentials', () => {
  it('reads the client secret, the certificate, the key and the optional CA', () => {
    expect(parseApiPixCredentials(secret({ ca: CA }))).toEqual({ clientSecret: CLIENT_SECRET, certificate: CERTIFICATE, privateKey: PRIVATE_KEY, ca: CA });
    expect(parseApiPixCredentials(secret())).toEqual({ clientSecret: CLIENT_SECRET, certificate: CERTIFICATE, privateKey: PRIVATE_KEY, ca: undefined });
  });

  it('accepts an EC or RSA private key', () => {
    const ec = '-----BEGIN EC PRIVATE KEY-----\nabc\n-----END EC PRIVATE KEY-----\n';
    expect(parseApiPixCredentials(secret({ private_key: ec })).privateKey).toBe(ec);
  });

  it('refuses text that is not JSON, without echoing it', () => {
    const text = `{"client_secret": "${CLIENT_SECRET}"`;
    const error = errorOf(() => parseApiPixCredentials(text));
    expect(error.message).toBe('The API Pix secret is not JSON');
    expect(error.message).not.toContain(CLIENT_SECRET);
  });

  it('names every missing field', () => {
    const error = errorOf(() => parseApiPixCredentials('{}'));
    expect(error.message).toMatch(/missing or has malformed fields/);
    for (const field of ['client_secret', 'certificate', 'private_key']) expect(error.message).toContain(field);
    expect(error.message).not.toContain('ca,');
  });

  it('names a malformed field without echoing its value', () => {
    const notACertificate = 'tls-material-5e4d3c2b1a-never-show-me';
    const cases: Array<{ fields: Record<string, unknown>; field: string; value: string }> = [
      { fields: { client_secret: '' }, field: 'client_secret', value: '' },
      { fields: { certificate: notACertificate }, field: 'certificate', value: notACertificate },
      { fields: { private_key: notACertificate }, field: 'private_key', value: notACertificate },
      { fields: { ca: notACertificate }, field: 'ca', value: notACertificate },
      { fields: { client_secret: 12345678 }, field: 'client_secret', value: '12345678' },
    ];
    for (const { fields, field, value } of cases) {
      const error = errorOf(() => parseApiPixCredentials(secret(fields)));
      expect(error.message, field).toMatch(new RegExp(`fields: ${field}$`));
      if (value !== '') expect(error.message, field).not.toContain(value);
      // The other fields were well formed: none is named, no value is echoed.
      expect(error.message, field).not.toContain(CLIENT_SECRET);
      expect(error.message, field).not.toContain('BODY');
    }
  });

  it('refuses JSON of another shape', () => {
    for (const text of ['null', '[]', '"text"', '42']) {
      expect(() => parseApiPixCredentials(text), text).toThrow(/missing or has malformed fields/);
    }
  });
});

/** A secret source answering from a script of outcomes, counting its calls. */
function fakeSource(outcomes: Array<string | Error>): SecretSource & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    getSecretString(secretId) {
      calls.push(secretId);
      const outcome = outcomes[Math.min(calls.length - 1, outcomes.length - 1)];
      return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome ?? '');
    },
  };
}

describe('apiPixCredentialsSource', () => {
  it('fetches the secret once and answers every later call from it', async () => {
    const source = fakeSource([secret()]);
    const credentials = apiPixCredentialsSource('payment-gateway/apipix', source);
    const [first, second] = await Promise.all([credentials(), credentials()]);
    const third = await credentials();
    expect(first.clientSecret).toBe(CLIENT_SECRET);
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(source.calls).toEqual(['payment-gateway/apipix']);
  });

  it('reads the secret again once API_PIX_CREDENTIALS_TTL_MS has passed (a renewed certificate reaches a running container), not before', async () => {
    const source = fakeSource([secret(), secret({ client_secret: 'renewed-client-secret' })]);
    let clock = 1_000_000;
    const credentials = apiPixCredentialsSource('payment-gateway/apipix', source, () => clock);
    expect((await credentials()).clientSecret).toBe(CLIENT_SECRET);
    clock += API_PIX_CREDENTIALS_TTL_MS - 1;
    expect((await credentials()).clientSecret).toBe(CLIENT_SECRET);
    expect(source.calls).toHaveLength(1);
    clock += 1;
    expect((await credentials()).clientSecret).toBe('renewed-client-secret');
    expect(source.calls).toHaveLength(2);
  });

  it('tries again on the next call after a failed fetch', async () => {
    const source = fakeSource([new Error('throttled'), secret()]);
    const credentials = apiPixCredentialsSource('payment-gateway/apipix', source);
    await expect(credentials()).rejects.toThrow('throttled');
    await expect(credentials()).resolves.toMatchObject({ clientSecret: CLIENT_SECRET });
    await credentials();
    expect(source.calls).toHaveLength(2);
  });

  it('tries again after a malformed secret, and does not keep it', async () => {
    const source = fakeSource(['not json', secret({ ca: CA })]);
    const credentials = apiPixCredentialsSource('id', source);
    await expect(credentials()).rejects.toThrow('The API Pix secret is not JSON');
    await expect(credentials()).resolves.toMatchObject({ ca: CA });
    expect(source.calls).toHaveLength(2);
  });
});

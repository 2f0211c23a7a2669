import { describe, expect, it } from 'vitest';
import { parseBasicAuthorization } from '../../../../shared/domain/auth/basic';
import { BadRequestError, DomainError, UnauthorizedError } from '../../../../shared/domain/errors';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

function thrown(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw new Error(`expected a DomainError, got ${String(err)}`);
  }
  throw new Error('expected a throw');
}

function expectMalformed(header: string) {
  const err = thrown(() => parseBasicAuthorization(header));
  expect(err).toBeInstanceOf(BadRequestError);
  expect(err.kind).toBe('invalid');
  expect(err.code).toBe('malformed_authorization');
}

function expectUnauthorized(header: string | undefined) {
  const err = thrown(() => parseBasicAuthorization(header));
  expect(err).toBeInstanceOf(UnauthorizedError);
  expect(err.kind).toBe('unauthorized');
}

describe('parseBasicAuthorization', () => {
  it('returns the public and secret key of a valid header', () => {
    expect(parseBasicAuthorization(`Basic ${b64('PUB-abc:SEC-def')}`)).toEqual({ publicKey: 'PUB-abc', secretKey: 'SEC-def' });
  });

  it('accepts the scheme in any case and surrounding spaces', () => {
    expect(parseBasicAuthorization(`basic   ${b64('p:s')}  `)).toEqual({ publicKey: 'p', secretKey: 's' });
    expect(parseBasicAuthorization(`BASIC ${b64('p:s')}`)).toEqual({ publicKey: 'p', secretKey: 's' });
  });

  it('splits at the first colon: a secret containing colons keeps them', () => {
    expect(parseBasicAuthorization(`Basic ${b64('PUB-1:se:cr:et:')}`)).toEqual({ publicKey: 'PUB-1', secretKey: 'se:cr:et:' });
  });

  it('decodes UTF-8 credentials', () => {
    expect(parseBasicAuthorization(`Basic ${b64('chave-pública:señha')}`)).toEqual({ publicKey: 'chave-pública', secretKey: 'señha' });
  });

  it('gives 401 when the header is missing or empty', () => {
    expectUnauthorized(undefined);
    expectUnauthorized('');
  });

  it.each(['Bearer x', 'Bearer pgt_abc.def', 'Digest username="x"', `Token ${b64('a:b')}`, `Basicx ${b64('a:b')}`])(
    'gives 401 for another scheme: %j',
    (header) => {
      expectUnauthorized(header);
    },
  );

  it('gives 400 malformed_authorization for a Basic header whose credentials are not base64', () => {
    expectMalformed('Basic !!!');
    expectMalformed('Basic !!!!');
    expectMalformed('Basic ab$d');
    expectMalformed('Basic ab cd');
  });

  it('gives 400 malformed_authorization for a bad padding length', () => {
    expectMalformed('Basic abc');
    expectMalformed('Basic abcde');
    const unpadded = b64('ab:c').replace(/=+$/, '');
    expect(unpadded.length % 4).not.toBe(0);
    expectMalformed(`Basic ${unpadded}`);
    expectMalformed('Basic ab===');
  });

  it('gives 400 malformed_authorization for Basic with no credentials', () => {
    expectMalformed('Basic');
    expectMalformed('Basic   ');
  });

  it('gives 400 malformed_authorization when the decoded text has no colon', () => {
    expectMalformed(`Basic ${b64('no-colon-here')}`);
  });

  it('refuses credentials far longer than any key (401) before they reach a table key', () => {
    const header = `Basic ${b64(`PUB-${'x'.repeat(2_100)}:SEC-secret`)}`;
    expect(() => parseBasicAuthorization(header)).toThrow(UnauthorizedError);
    expect(parseBasicAuthorization(`Basic ${b64(`PUB-${'a'.repeat(32)}:SEC-${'b'.repeat(48)}`)}`).publicKey).toBe(`PUB-${'a'.repeat(32)}`);
  });
});

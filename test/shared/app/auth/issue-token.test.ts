import { describe, expect, it } from 'vitest';
import { issueToken, type TokenPorts } from '../../../../shared/app/auth/issue-token';
import { hashSecretKey } from '../../../../shared/domain/auth/secret-hash';
import { verifyToken } from '../../../../shared/domain/auth/token';
import { UnauthorizedError } from '../../../../shared/domain/errors';
import type { IssuedKey } from '../../../../shared/ports/api-keys';

const SIGNING = Buffer.alloc(32, 9);
const PUBLIC = 'PUB-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const SECRET = 'SEC-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';

function ports(stored: IssuedKey | undefined): TokenPorts & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    keys: {
      byPublicKey: async (publicKey) => {
        asked.push(publicKey);
        return publicKey === PUBLIC ? stored : undefined;
      },
    },
    signingKey: async () => SIGNING,
    ttlSeconds: 3_600,
  };
}

describe('issue a token (use case)', () => {
  it('signs a token of the key’s account and version, valid for the configured lifetime', async () => {
    const answer = await issueToken(
      ports({ accountId: 'acct_1', keyVersion: 3, secretHash: hashSecretKey(SECRET) }),
      { publicKey: PUBLIC, secretKey: SECRET },
      1_000,
    );
    expect(answer).toMatchObject({ token_type: 'Bearer', expires_in: 3_600 });
    expect(verifyToken(answer.token, SIGNING, 1_001)).toEqual({ accountId: 'acct_1', keyVersion: 3, issuedAt: 1_000, expiresAt: 4_600 });
  });

  it('a wrong secret and an unknown public key get the same 401', async () => {
    const stored = { accountId: 'acct_1', keyVersion: 1, secretHash: hashSecretKey(SECRET) };
    const wrong = issueToken(ports(stored), { publicKey: PUBLIC, secretKey: SECRET.replace('b', 'c') }, 1_000);
    const unknown = issueToken(ports(stored), { publicKey: PUBLIC.replace('a', 'c'), secretKey: SECRET }, 1_000);
    for (const refused of [wrong, unknown]) {
      await expect(refused).rejects.toBeInstanceOf(UnauthorizedError);
      await expect(refused).rejects.toThrow('Invalid public or secret key');
    }
  });
});

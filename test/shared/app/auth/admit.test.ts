import { describe, expect, it } from 'vitest';
import { admit, CountedRefusal, countRefusedCredentials, type GatePorts } from '../../../../shared/app/auth/admit';
import { signToken } from '../../../../shared/domain/auth/token';
import type { Account } from '../../../../shared/domain/account';
import { AccountDisabledError, UnauthorizedError } from '../../../../shared/domain/errors';
import type { GateStore } from '../../../../shared/ports/gate';

const SIGNING = Buffer.alloc(32, 5);
const now = new Date('2026-11-27T12:00:00.000Z');
const seconds = Math.floor(now.getTime() / 1000);
const token = (keyVersion = 2) => `Bearer ${signToken({ accountId: 'acct_1', keyVersion, issuedAt: seconds, expiresAt: seconds + 60 }, SIGNING)}`;
const account: Account = { accountId: 'acct_1', name: 'Loja', methods: ['pix'], webhookSecretConfigured: false, disabled: false };
const quota = { limit: 10, remaining: 9, resetSeconds: 60 };

/** A store over one account (key version 2) that records every count it is asked for. */
function gate(state: { keyVersion: number; disabled: boolean } | 'no account' = { keyVersion: 2, disabled: false }) {
  const counted: string[] = [];
  const store: GateStore = {
    countAccountCall: async (hit) => {
      counted.push(`account:${hit.withAccount}`);
      if (state === 'no account' || hit.keyVersion !== state.keyVersion) throw new UnauthorizedError('Token revoked: the account keys were rotated');
      return { account: hit.withAccount ? account : undefined, quota };
    },
    countIpCall: async (hit) => {
      counted.push(`${hit.limitClass}:${hit.ip}:${hit.limit}`);
      return quota;
    },
    keyState: async () => (state === 'no account' ? undefined : state),
  };
  const ports: GatePorts = {
    store,
    tokenSigningKey: async () => SIGNING,
    limits: { auth: 1, cep: 2, checkout: 3, public: 4, unauthenticated: 5, account: 6 },
    now,
  };
  return { ports, counted };
}

const bearer = (rateLimit: 'account' | 'auth' | 'none', access: 'read' | 'write' = 'read') => ({ auth: 'bearer' as const, rateLimit, access });

describe('admission (use case)', () => {
  it('a Bearer route limited per account: one count, the account’s settings only for a write route', async () => {
    const read = gate();
    expect(await admit(bearer('account'), { authorization: token(), sourceIp: '1.2.3.4' }, read.ports)).toEqual({
      caller: { accountId: 'acct_1', keyVersion: 2 },
      quota,
    });
    const write = gate();
    expect((await admit(bearer('account', 'write'), { authorization: token(), sourceIp: '1.2.3.4' }, write.ports)).caller).toEqual({
      accountId: 'acct_1',
      keyVersion: 2,
      account,
    });
    expect([...read.counted, ...write.counted]).toEqual(['account:false', 'account:true']);
  });

  it('a token that fails is counted per IP in the unauthenticated class, and the refusal carries that quota', async () => {
    const run = gate();
    const refused = await admit(bearer('account'), { authorization: token(1), sourceIp: '9.9.9.9' }, run.ports).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(CountedRefusal);
    expect((refused as CountedRefusal).refusal).toBeInstanceOf(UnauthorizedError);
    expect((refused as CountedRefusal).quota).toEqual(quota);
    expect(run.counted).toEqual(['account:false', 'unauthenticated:9.9.9.9:5']);
  });

  it('a Bearer route not counted per account checks the key version: rotated → 401, disabled → 403, unknown account → 401', async () => {
    await expect(admit(bearer('none'), { authorization: token(), sourceIp: 'ip' }, gate({ keyVersion: 3, disabled: false }).ports)).rejects.toBeInstanceOf(
      CountedRefusal,
    );
    await expect(admit(bearer('none'), { authorization: token(), sourceIp: 'ip' }, gate({ keyVersion: 2, disabled: true }).ports)).rejects.toBeInstanceOf(
      AccountDisabledError,
    );
    await expect(admit(bearer('none'), { authorization: token(), sourceIp: 'ip' }, gate('no account').ports)).rejects.toBeInstanceOf(CountedRefusal);
    const fine = gate();
    expect(await admit(bearer('none'), { authorization: token(), sourceIp: 'ip' }, fine.ports)).toEqual({
      caller: { accountId: 'acct_1', keyVersion: 2 },
      quota: undefined,
    });
    expect(fine.counted).toEqual([]);
  });

  it('public routes count their class per IP; a failures route counts only the calls it refuses', async () => {
    const run = gate();
    expect(await admit({ auth: 'none', rateLimit: 'cep', access: 'write' }, { authorization: undefined, sourceIp: '5.5.5.5' }, run.ports)).toEqual({
      caller: undefined,
      quota,
    });
    expect(await admit({ auth: 'none', rateLimit: 'failures', access: 'write' }, { authorization: undefined, sourceIp: '5.5.5.5' }, run.ports)).toEqual({
      caller: undefined,
      quota: undefined,
    });
    expect(await countRefusedCredentials({ auth: 'none', rateLimit: 'failures', access: 'write' }, '5.5.5.5', run.ports)).toEqual(quota);
    expect(run.counted).toEqual(['cep:5.5.5.5:2', 'public:5.5.5.5:4']);
  });

  it('counts an IPv6 client under its /64 and an IPv4-mapped one under its IPv4, in every per-IP class (issue 43)', async () => {
    const run = gate();
    await admit({ auth: 'none', rateLimit: 'checkout', access: 'write' }, { authorization: undefined, sourceIp: '2001:db8:1:2:a:b:c:d' }, run.ports);
    await admit({ auth: 'none', rateLimit: 'checkout', access: 'write' }, { authorization: undefined, sourceIp: '2001:DB8:1:2::9' }, run.ports);
    await admit({ auth: 'none', rateLimit: 'cep', access: 'write' }, { authorization: undefined, sourceIp: '::ffff:192.0.2.7' }, run.ports);
    await countRefusedCredentials({ auth: 'none', rateLimit: 'failures', access: 'write' }, '2001:db8:1:3::1', run.ports);
    await expect(admit(bearer('none'), { authorization: 'Bearer nope', sourceIp: '2001:db8:1:2::5' }, run.ports)).rejects.toBeInstanceOf(CountedRefusal);
    expect(run.counted).toEqual([
      'checkout:2001:db8:1:2::/64:3',
      'checkout:2001:db8:1:2::/64:3',
      'cep:192.0.2.7:2',
      'public:2001:db8:1:3::/64:4',
      'unauthenticated:2001:db8:1:2::/64:5',
    ]);
  });
});

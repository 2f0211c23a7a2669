import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventCompilers } from '../../shared/adapters/dynamo/changes';
import { keys as itemKeys } from '../../shared/adapters/dynamo/keys';
import { requireCaller } from '../../shared/domain/auth/caller';
import { httpHandler } from '../../shared/http/pipeline';
import { accountStore, bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { invoke } from '../support/invoke';
import { probeRoute } from '../support/probe-route';

/**
 * A route's table grants for its changes derive from the kinds its row names (infra/cdk/table-access.ts):
 * the local stack has no IAM, so the pipeline itself refuses what AWS would, and nothing is written.
 */
const deployed = { ...probeRoute, id: 'NamesNoEvents', handler: 'functions/probe.ts', changes: ['customer.created'] as const };

async function stored(id: string): Promise<boolean> {
  const store = accountStore();
  const out = await store.db.send(new GetCommand({ TableName: store.table, Key: itemKeys.event(id), ConsistentRead: true }));
  return out.Item !== undefined;
}

describe("a route's changes and its row", () => {
  beforeAll(() => {
    useLocalStackEnvironment();
  });

  it('refuses (500, nothing written, the key free again) a change kind its row does not name, and commits one it names', async () => {
    const auth = bearer(await tokenFor(await newAccount()));
    const recordEvent = (accountId: string, id: string) => ({
      kind: 'event.recorded' as const,
      accountId,
      event: { id, type: 'ping', created: 1, api_version: 'v', data: {} },
    });
    const unnamed = httpHandler(
      deployed,
      async ({ caller }) => ({ status: 200, body: {}, changes: [recordEvent(requireCaller(caller).accountId, 'evt_unnamed_kind')] }),
      { changes: eventCompilers },
    );
    const refused = await invoke(unnamed, deployed, { headers: { ...auth, 'idempotency-key': 'key-unnamed-1' }, body: { name: 'a' } });
    expect(refused.status).toBe(500);
    expect(await stored('evt_unnamed_kind')).toBe(false);
    // Nothing was recorded under the key: the same call is refused again, not replayed nor held in progress.
    expect((await invoke(unnamed, deployed, { headers: { ...auth, 'idempotency-key': 'key-unnamed-1' }, body: { name: 'a' } })).status).toBe(500);

    const named = { ...deployed, id: 'NamesEvents', changes: ['event.recorded'] as const };
    const allowed = httpHandler(
      named,
      async ({ caller }) => ({ status: 200, body: {}, changes: [recordEvent(requireCaller(caller).accountId, 'evt_named_kind')] }),
      { changes: eventCompilers },
    );
    expect((await invoke(allowed, named, { headers: { ...auth, 'idempotency-key': 'key-named-1' }, body: { name: 'a' } })).status).toBe(200);
    expect(await stored('evt_named_kind')).toBe(true);
  });

  it('refuses raw writes from a deployed route (functions/): its writes are its changes', async () => {
    const account = await newAccount();
    const auth = bearer(await tokenFor(account));
    const raw = httpHandler(deployed, async ({ runtime }) => ({
      status: 200,
      body: {},
      writes: [{ Put: { TableName: runtime.config.tableName, Item: { ...itemKeys.event('evt_raw_write'), type: 'event' } } }],
    }));
    expect((await invoke(raw, deployed, { headers: auth, body: { name: 'a' } })).status).toBe(500);
    expect(await stored('evt_raw_write')).toBe(false);
  });
});

import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/adapters/dynamo/keys';
import { dynamoPixStatementCursors } from '../../shared/adapters/dynamo/pix-statement-cursor';
import type { StatementCursor } from '../../shared/domain/pix-statement';
import { accountStore } from '../support/api';

/**
 * The Pix sweep's cursor in a PSP's statement over DynamoDB Local (shared/adapters/dynamo/pix-statement-cursor.ts):
 * moved by one conditional PutItem on the cursor read (or its absence), so of runs moving it from the same
 * place at once exactly one does, and a run holding a stale cursor moves nothing.
 */
const store = accountStore();
const cursors = dynamoPixStatementCursors(store.db, store.table);
const provider = () => `test-${randomUUID()}`;

const pass: StatementCursor = { from: '2026-11-26T12:30:00.000Z', to: '2026-11-27T12:30:00.000Z', page: 0 };
const pageOf = (page: number): StatementCursor => ({ ...pass, page });

describe('the Pix statement cursor over DynamoDB Local', () => {
  it('none before the first pass; the first advance (from none) writes it, one item under PIXSTMT#<provider>', async () => {
    const psp = provider();
    expect(await cursors.read(psp)).toBeUndefined();
    expect(await cursors.advance(psp, undefined, pageOf(1))).toBe(true);
    expect(await cursors.read(psp)).toEqual(pageOf(1));
    const item = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.pixStatement(psp), ConsistentRead: true }))).Item;
    expect(item).toEqual({ PK: `PIXSTMT#${psp}`, SK: 'PIXSTMT', type: 'pixStatement', provider: psp, from: pass.from, to: pass.to, page: 1 });
    // Another provider's cursor is its own.
    expect(await cursors.read(provider())).toBeUndefined();
  });

  it('20 first runs at once (no cursor yet): exactly one writes it, and it holds that run’s cursor', async () => {
    const psp = provider();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => cursors.advance(psp, undefined, pageOf(i + 1))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await cursors.read(psp)).toEqual(pageOf(results.indexOf(true) + 1));
  });

  it('20 runs moving it from the same place at once: exactly one moves it', async () => {
    const psp = provider();
    await cursors.advance(psp, undefined, pageOf(1));
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => cursors.advance(psp, pageOf(1), pageOf(i + 2))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await cursors.read(psp)).toEqual(pageOf(results.indexOf(true) + 2));
  });

  it('a run holding a stale cursor (another page, another window, or none while one exists) moves nothing', async () => {
    const psp = provider();
    await cursors.advance(psp, undefined, pageOf(2));
    const next: StatementCursor = { from: pass.to, to: '2026-11-27T13:30:00.000Z', page: 0 };
    expect(await cursors.advance(psp, pageOf(1), next)).toBe(false);
    expect(await cursors.advance(psp, { ...pageOf(2), from: '2026-11-26T12:30:00.001Z' }, next)).toBe(false);
    expect(await cursors.advance(psp, { ...pageOf(2), to: '2026-11-27T12:30:00.001Z' }, next)).toBe(false);
    expect(await cursors.advance(psp, undefined, next)).toBe(false);
    expect(await cursors.read(psp)).toEqual(pageOf(2));
    expect(await cursors.advance(psp, pageOf(2), next)).toBe(true);
    expect(await cursors.read(psp)).toEqual(next);
  });

  it('an item that is not a cursor reads as none', async () => {
    const psp = provider();
    await store.db.send(
      new PutCommand({ TableName: store.table, Item: { ...keys.pixStatement(psp), type: 'pixStatement', from: pass.from, to: pass.to, page: '1' } }),
    );
    expect(await cursors.read(psp)).toBeUndefined();
  });
});

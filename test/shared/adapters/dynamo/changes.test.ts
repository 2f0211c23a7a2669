import { describe, expect, it } from 'vitest';
import { changeWrites, eventCompilers, mergeCompilers } from '../../../../shared/adapters/dynamo/changes';
import { ledgerCompilers } from '../../../../shared/adapters/dynamo/ledger';
import type { Change } from '../../../../shared/domain/changes';
import { paymentCredit } from '../../../../shared/domain/ledger';

const keys = async () => ({ personalData: Buffer.alloc(32, 1), webhookSecrets: Buffer.alloc(32, 2) });
const context = { table: 't', keys, scope: { id: 'TestRoute', changes: ['ledger.transfer', 'event.recorded'] as const } };
const credit = paymentCredit({ accountId: 'acct_1', reference: 'INV-AAAAAA', description: 'Payment', at: '2026-11-27T12:00:00.000Z' }, 1_000, 'pix');
const event: Change = { kind: 'event.recorded', accountId: 'acct_1', event: { id: 'evt_1', type: 'invoice.paid', created: 1, api_version: 'v', data: {} } };

describe('changes compiled by the compilers a route hands over', () => {
  it("writes each change's writes in the changes' order", async () => {
    const writes = await changeWrites(context, [credit, event], { ...ledgerCompilers, ...eventCompilers });
    expect(writes.map((w) => (w.Update ? `update ${String(w.Update.Key?.PK)}` : `put ${String(w.Put?.Item?.PK).split('#')[0]}`))).toEqual([
      expect.stringMatching(/^update BAL#acct_1#\d+$/),
      'put LEDGER',
      'put EVT',
    ]);
  });

  it("refuses a change its route's row does not name, whatever the compilers know (its grants would not cover it on AWS)", async () => {
    const narrow = { table: 't', keys, scope: { id: 'TestRoute', changes: ['ledger.transfer'] as const } };
    const all = { ...ledgerCompilers, ...eventCompilers };
    await expect(changeWrites(narrow, [credit, event], all)).rejects.toThrow(/TestRoute said a event.recorded change its row does not name/);
    await expect(changeWrites({ table: 't', keys, scope: { id: 'ReadRoute' } }, [credit], all)).rejects.toThrow(/ReadRoute said a ledger.transfer change/);
    expect(await changeWrites(narrow, [credit], all)).toHaveLength(2);
  });

  it('refuses a change no compiler of the route knows (a route missing its room is a programming error, never a silent drop)', async () => {
    await expect(changeWrites(context, [credit, event], ledgerCompilers)).rejects.toThrow(/No compiler for a event.recorded change/);
  });
});

describe('compiler sets merged', () => {
  it('keeps every set’s compilers, and a kind none of them names still fails', async () => {
    const merged = mergeCompilers(ledgerCompilers, eventCompilers);
    expect(Object.keys(merged).sort()).toEqual(['event.recorded', 'ledger.transfer']);
    expect(merged['ledger.transfer']).toBe(ledgerCompilers['ledger.transfer']);
    const context = { table: 't', keys, scope: { id: 'TestRoute', changes: ['cep.cached'] as const } };
    const cached: Change = {
      kind: 'cep.cached',
      address: { zipcode: '01310100', state: 'SP', city: 'São Paulo', district: 'Bela Vista', street: 'Av. Paulista' },
      expiresAt: 1,
    };
    await expect(changeWrites(context, [cached], merged)).rejects.toThrow(/No compiler for a cep.cached change/);
  });
});

import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../../shared/domain/ledger';
import { statementCsv } from '../../../../shared/pages/panel/statement-csv';

const entry = (overrides: Partial<LedgerEntry>): LedgerEntry => ({
  id: 'txn_1',
  type: 'payment',
  availableCents: 1_050,
  reservedCents: 0,
  reference: 'INV-AAAAAA',
  description: 'Payment of INV-AAAAAA (pix)',
  createdAt: '2026-11-20T14:03:11.512Z',
  ...overrides,
});

describe("the statement's CSV export", () => {
  it('writes RFC 4180 rows with the API’s values, signed amounts kept as numbers', () => {
    const csv = statementCsv([
      entry({}),
      entry({
        id: 'txn_2',
        type: 'withdrawal',
        availableCents: -10_150,
        reservedCents: 10_150,
        reference: 'WD-AAAAAAAAAAAA',
        description: 'Pix, "fornecedor", lote 2',
      }),
    ]);
    expect(csv.split('\r\n')).toEqual([
      'id,created_at,type,amount,reserved,reference,description',
      'txn_1,2026-11-20T14:03:11.512Z,payment,10.50,0.00,INV-AAAAAA,Payment of INV-AAAAAA (pix)',
      'txn_2,2026-11-20T14:03:11.512Z,withdrawal,-101.50,101.50,WD-AAAAAAAAAAAA,"Pix, ""fornecedor"", lote 2"',
      '',
    ]);
  });

  it('defuses text cells a spreadsheet would run as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t']) {
      const [, row] = statementCsv([entry({ description: `${start}cmd|' /C calc'!A0` })]).split('\r\n');
      expect(row?.split(',').slice(6).join(',')).toMatch(/^"?'/);
    }
    expect(statementCsv([])).toBe('id,created_at,type,amount,reserved,reference,description\r\n');
  });
});

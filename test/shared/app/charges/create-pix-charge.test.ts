import { describe, expect, it } from 'vitest';
import { createPixCharge, type PixChargeRequest } from '../../../../shared/app/charges/create-pix-charge';
import type { InvoiceIds } from '../../../../shared/domain/invoice';
import { UpstreamError } from '../../../../shared/domain/errors';
import { referenceOfTxid } from '../../../../shared/domain/invoice-ids';
import type { InvoiceIdPort } from '../../../../shared/ports/invoices';
import { ProviderError, type PixChargeRequest as ProviderPixRequest, type PixProvider } from '../../../../shared/ports/payment-provider';

const now = new Date('2026-11-27T12:00:00.000Z');

/** Ids: the proposal when free, else the next drawn pair. */
function ids(takenReferences: string[] = []): InvoiceIdPort {
  return {
    unused: async (_now, proposed) => (proposed && !takenReferences.includes(proposed.reference) ? proposed : { invoiceId: 777, reference: 'INV-DRAWN2' }),
  };
}

function provider(fail = false): PixProvider & { asked: ProviderPixRequest[] } {
  const asked: ProviderPixRequest[] = [];
  return {
    name: 'simulated',
    asked,
    charges: {
      async pix(request) {
        asked.push(request);
        if (fail) throw new ProviderError('down');
        return { txid: request.txid, location: 'pix.example/loc/1', copy: `000201${request.reference}` };
      },
    },
  };
}

const request = (proposed?: InvoiceIds & { txid?: string }): PixChargeRequest => ({
  base: () => ({
    accountId: 'acct_1',
    merchantName: 'Loja',
    invoiceNo: 'N1',
    itemName: 'Item',
    quantity: 1,
    amountCents: 1_000,
    tax: 0,
    discount: 0,
    totalCents: 1_000,
    createdAt: now.toISOString(),
  }),
  totalCents: 1_000,
  dueDate: '2026-11-28',
  merchantName: 'Loja',
  payer: { email: 'ana@example.com' },
  ...(proposed ? { proposed } : {}),
  failure: 'down',
  now,
});

describe('create a Pix charge (the one use case of the API and the checkout)', () => {
  it('asks the provider once, under the proposed txid, and creates the PENDING invoice as one change', async () => {
    const pix = provider();
    const proposed = { invoiceId: 5, reference: 'INV-KEYED1', txid: 'INVKEYED1abcdefghijklmnopqrstuvw' };
    const { answer, changes } = await createPixCharge({ ids: ids(), provider: pix, timeoutMs: 1_000 }, request(proposed));
    expect(pix.asked).toEqual([
      { reference: 'INV-KEYED1', txid: proposed.txid, amountCents: 1_000, dueDate: '2026-11-28', merchantName: 'Loja', payer: { email: 'ana@example.com' } },
    ]);
    expect(answer).toMatchObject({
      reference: 'INV-KEYED1',
      invoiceId: 5,
      method: 'pix',
      status: 'PENDING',
      dueDate: '2026-11-28',
      provider: 'simulated',
      awaitsPixLookup: false,
    });
    expect(answer.pix).toMatchObject({ txid: proposed.txid, copy: '000201INV-KEYED1', location: 'pix.example/loc/1' });
    expect(answer.pix?.qrPng?.length).toBeGreaterThan(100);
    expect(changes).toEqual([{ kind: 'invoice.created', invoice: answer }]);
  });

  it('a proposal already taken draws new ids and a txid of their own (the proposed txid is never used for another reference)', async () => {
    const pix = provider();
    const { answer } = await createPixCharge(
      { ids: ids(['INV-KEYED1']), provider: pix, timeoutMs: 1_000 },
      request({ invoiceId: 5, reference: 'INV-KEYED1', txid: 'INVKEYED1abcdefghijklmnopqrstuvw' }),
    );
    expect(answer.reference).toBe('INV-DRAWN2');
    expect(referenceOfTxid(answer.pix?.txid ?? '')).toBe('INV-DRAWN2');
    expect(pix.asked).toHaveLength(1);
  });

  it('a provider failure is 502 with nothing to record', async () => {
    await expect(createPixCharge({ ids: ids(), provider: provider(true), timeoutMs: 1_000 }, request())).rejects.toBeInstanceOf(UpstreamError);
  });
});

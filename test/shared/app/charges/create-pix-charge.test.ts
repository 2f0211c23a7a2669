import { describe, expect, it } from 'vitest';
import { type ApiPixChargeRequest, createApiPixCharge, createPixCharge, type PixChargeRequest } from '../../../../shared/app/charges/create-pix-charge';
import type { Caller } from '../../../../shared/domain/account';
import { lastPixDueDate } from '../../../../shared/domain/pix-expiration';
import { type Cents, requestCents } from '../../../../shared/domain/money';
import type { PaymentMethod } from '../../../../shared/domain/payment-methods';
import { RAIL_LIMIT_CENTS } from '../../../../shared/domain/rail-limits';
import { idempotentPixIds } from '../../../../shared/platform/invoice-references';
import type { InvoiceIds } from '../../../../shared/domain/invoice';
import { BadRequestError, UpstreamError } from '../../../../shared/domain/errors';
import { referenceOfTxid } from '../../../../shared/domain/invoice-ids';
import type { InvoiceIdPort } from '../../../../shared/ports/invoices';
import type { QrCodeDrawer } from '../../../../shared/ports/qr-code';
import { ProviderError, type PixChargeRequest as ProviderPixRequest, type PixProvider } from '../../../../shared/ports/payment-provider';

const now = new Date('2026-11-27T12:00:00.000Z');

/** A QR code drawer that draws a recognizable image of the text (the use case stores what the port draws). */
const qrCodes: QrCodeDrawer = { png: (text) => new Uint8Array(Buffer.from(`QR of ${text}`)) };

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
    const { answer, changes } = await createPixCharge({ ids: ids(), provider: pix, timeoutMs: 1_000, qrCodes }, request(proposed));
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
    expect(answer.pix?.qrPng).toEqual(qrCodes.png('000201INV-KEYED1'));
    expect(changes).toEqual([{ kind: 'invoice.created', invoice: answer }]);
  });

  it('a proposal already taken draws new ids and a txid of their own (the proposed txid is never used for another reference)', async () => {
    const pix = provider();
    const { answer } = await createPixCharge(
      { ids: ids(['INV-KEYED1']), provider: pix, timeoutMs: 1_000, qrCodes },
      request({ invoiceId: 5, reference: 'INV-KEYED1', txid: 'INVKEYED1abcdefghijklmnopqrstuvw' }),
    );
    expect(answer.reference).toBe('INV-DRAWN2');
    expect(referenceOfTxid(answer.pix?.txid ?? '')).toBe('INV-DRAWN2');
    expect(pix.asked).toHaveLength(1);
  });

  it('a provider failure is 502 with nothing to record', async () => {
    await expect(createPixCharge({ ids: ids(), provider: provider(true), timeoutMs: 1_000, qrCodes }, request())).rejects.toBeInstanceOf(UpstreamError);
  });
});

describe('create a Pix charge through the API (POST /api/pix/create): the request checked in the use case', () => {
  const account = (methods: PaymentMethod[]): Caller => ({
    accountId: 'acct_1',
    keyVersion: 1,
    account: { accountId: 'acct_1', name: 'Loja', methods, webhookSecretConfigured: false, disabled: false },
  });
  const api: ApiPixChargeRequest = {
    caller: account(['pix']),
    body: {
      invoice_no: 'N1',
      item_name: 'Item',
      quantity: 2,
      amount: requestCents(10.05),
      tax: 10,
      discount: 5,
      due_date: '2026-11-28',
      email: 'ana@example.com',
    },
    idempotencyKey: undefined,
    failure: 'down',
    now,
  };
  const withBody = (body: Partial<ApiPixChargeRequest['body']>, caller = api.caller): ApiPixChargeRequest => ({
    ...api,
    caller,
    body: { ...api.body, ...body },
  });

  /** A refusal, with nothing read and nobody asked. */
  async function refused(bad: ApiPixChargeRequest) {
    const pix = provider();
    let read = 0;
    const error: unknown = await createApiPixCharge(
      { ids: { unused: async () => ((read += 1), { invoiceId: 1, reference: 'INV-AAAAAA' }) }, provider: pix, timeoutMs: 1_000, qrCodes },
      bad,
    ).catch((err: unknown) => err);
    expect(read).toBe(0);
    expect(pix.asked).toEqual([]);
    return error;
  }

  it('charges the total of amount, quantity, tax and discount for the request fields and the merchant', async () => {
    const pix = provider();
    const { answer, changes } = await createApiPixCharge({ ids: ids(), provider: pix, timeoutMs: 1_000, qrCodes }, withBody({ client: 'Ana', notes: 'n' }));
    // 10.05 × 2 × (1 + 0.10 − 0.05) = 21.105 → 21.11 (half up).
    expect(pix.asked).toEqual([
      {
        reference: 'INV-DRAWN2',
        txid: answer.pix?.txid,
        amountCents: 2_111,
        dueDate: '2026-11-28',
        merchantName: 'Loja',
        payer: { email: 'ana@example.com', name: 'Ana' },
      },
    ]);
    expect(answer).toMatchObject({
      accountId: 'acct_1',
      merchantName: 'Loja',
      invoiceNo: 'N1',
      itemName: 'Item',
      amountCents: 1_005,
      quantity: 2,
      totalCents: 2_111,
      notes: 'n',
    });
    expect(changes).toEqual([{ kind: 'invoice.created', invoice: answer }]);
  });

  it("with an Idempotency-Key proposes the ids and txid derived from it (a retry finds the PSP's first charge)", async () => {
    const pix = provider();
    const { answer } = await createApiPixCharge({ ids: ids(), provider: pix, timeoutMs: 1_000, qrCodes }, { ...api, idempotencyKey: 'key-1' });
    const derived = idempotentPixIds('acct_1', 'key-1');
    expect(answer.reference).toBe(derived.reference);
    expect(pix.asked[0]?.txid).toBe(derived.txid);
  });

  it('400 method_not_enabled for an account without Pix', async () => {
    const error = await refused(withBody({}, account(['boleto', 'card'])));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ code: 'method_not_enabled', message: 'The payment method pix is not enabled for this account' });
  });

  it("422 on due_date before today (Brazil's date)", async () => {
    expect(await refused(withBody({ due_date: '2026-11-26' }))).toMatchObject({ details: { fields: { due_date: ['Must be today or later'] } } });
  });

  it('422 on due_date after the last day a Pix charge created now can stay payable, naming it', async () => {
    const last = lastPixDueDate(now);
    const after = new Date(Date.parse(`${last}T12:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(await refused(withBody({ due_date: after }))).toMatchObject({
      details: { fields: { due_date: [`Must be ${last} or earlier: a Pix charge cannot stay payable longer`] } },
    });
    await expect(createApiPixCharge({ ids: ids(), provider: provider(), timeoutMs: 1_000, qrCodes }, withBody({ due_date: last }))).resolves.toBeDefined();
  });

  it("422 on amount beyond Pix's ceiling, on discount for a zero total", async () => {
    const one = { quantity: 1, tax: 0, discount: 0 };
    expect(await refused(withBody({ ...one, amount: (RAIL_LIMIT_CENTS.pix + 1) as Cents }))).toMatchObject({
      details: { fields: { amount: [expect.stringContaining('pix can carry')] } },
    });
    expect(await refused(withBody({ ...one, amount: requestCents(1), discount: 100 }))).toMatchObject({
      details: { fields: { discount: ['The total must be at least 0.01'] } },
    });
    const { answer } = await createApiPixCharge(
      { ids: ids(), provider: provider(), timeoutMs: 1_000, qrCodes },
      withBody({ ...one, amount: RAIL_LIMIT_CENTS.pix as Cents }),
    );
    expect(answer.totalCents).toBe(RAIL_LIMIT_CENTS.pix);
  });
});

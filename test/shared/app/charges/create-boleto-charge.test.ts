import { describe, expect, it } from 'vitest';
import { createBoletoCharge, type BoletoChargeRequest } from '../../../../shared/app/charges/create-boleto-charge';
import type { Caller } from '../../../../shared/domain/account';
import type { Customer } from '../../../../shared/domain/customer';
import { type Cents, requestCents } from '../../../../shared/domain/money';
import type { PaymentMethod } from '../../../../shared/domain/payment-methods';
import { RAIL_LIMIT_CENTS } from '../../../../shared/domain/rail-limits';
import { BadRequestError, ValidationError } from '../../../../shared/domain/errors';
import type { CustomerStore } from '../../../../shared/ports/customers';
import type { QrCodeDrawer } from '../../../../shared/ports/qr-code';
import type { BoletoRequest, PixDueChargeRequest } from '../../../../shared/ports/payment-provider';
import { ProviderError } from '../../../../shared/ports/payment-provider';

const now = new Date('2026-11-27T12:00:00.000Z');

/** A QR code drawer that draws a recognizable image of the text (the use case stores what the port draws). */
const qrCodes: QrCodeDrawer = { png: (text) => new Uint8Array(Buffer.from(`QR of ${text}`)) };
const ana: Customer = {
  id: 42,
  accountId: 'acct_1',
  name: 'Ana',
  document: '52998224725',
  documentType: 'CPF',
  email: 'ana@example.com',
  zipcode: '01310100',
  state: 'SP',
  city: 'São Paulo',
  street: 'Avenida Paulista',
  createdAt: now.toISOString(),
};

function ports(customer: Customer | undefined) {
  const asked: BoletoRequest[] = [];
  const reads: string[] = [];
  const customers: CustomerStore = {
    get: async (accountId, id) => (reads.push('customer'), customer && accountId === customer.accountId && id === customer.id ? customer : undefined),
    list: async () => [],
  };
  return {
    asked,
    reads,
    ports: {
      ids: { unused: async () => (reads.push('ids'), { invoiceId: 9, reference: 'INV-BOLETO' }) },
      customers,
      provider: {
        name: 'simulated',
        charges: {
          boleto: async (request: BoletoRequest) => {
            asked.push(request);
            return { barcode: '0'.repeat(44), digitable: '1'.repeat(47) };
          },
        },
      },
      timeoutMs: 1_000,
      qrCodes,
    },
  };
}

const account = (methods: PaymentMethod[]): Caller => ({
  accountId: 'acct_1',
  keyVersion: 1,
  account: { accountId: 'acct_1', name: 'Loja', methods, webhookSecretConfigured: false, disabled: false },
});

const request: BoletoChargeRequest = {
  caller: account(['boleto']),
  body: {
    customer: 42,
    invoice_no: 'N1',
    item_name: 'Item',
    quantity: 1,
    amount: requestCents(50),
    tax: 0,
    discount: 0,
    due_date: '2026-12-10',
    instructions: 'Não receber após o vencimento',
  },
  failure: 'down',
  now,
};

/** The request with other body fields. */
const withBody = (body: Partial<BoletoChargeRequest['body']>, caller = request.caller): BoletoChargeRequest => ({
  ...request,
  caller,
  body: { ...request.body, ...body },
});

describe('create a boleto charge (use case)', () => {
  it('registers the boleto once for the customer and creates the PENDING invoice as one change', async () => {
    const run = ports(ana);
    const { answer, changes } = await createBoletoCharge(run.ports, request);
    expect(run.asked).toEqual([
      {
        reference: 'INV-BOLETO',
        invoiceId: 9,
        amountCents: 5_000,
        dueDate: '2026-12-10',
        merchantName: 'Loja',
        payer: { name: 'Ana', email: 'ana@example.com', document: '52998224725' },
        instructions: 'Não receber após o vencimento',
      },
    ]);
    expect(answer).toMatchObject({
      reference: 'INV-BOLETO',
      invoiceId: 9,
      method: 'boleto',
      status: 'PENDING',
      provider: 'simulated',
      boleto: { customerId: 42, barcode: '0'.repeat(44) },
    });
    expect(changes).toEqual([{ kind: 'invoice.created', invoice: answer }]);
  });

  it('refuses a customer of another account, or one without a full address, before asking anyone (422 on customer)', async () => {
    const stranger = ports({ ...ana, accountId: 'acct_2' });
    await expect(createBoletoCharge(stranger.ports, request)).rejects.toMatchObject({ details: { fields: { customer: ['Not one of your customers'] } } });
    const noAddress = ports({ ...ana, street: undefined });
    await expect(createBoletoCharge(noAddress.ports, request)).rejects.toBeInstanceOf(ValidationError);
    expect([...stranger.asked, ...noAddress.asked]).toEqual([]);
  });

  describe('the request checked before anything is read or asked', () => {
    async function refused(bad: BoletoChargeRequest) {
      const run = ports(ana);
      const error: unknown = await createBoletoCharge(run.ports, bad).catch((err: unknown) => err);
      expect(run.reads).toEqual([]);
      expect(run.asked).toEqual([]);
      return error;
    }

    it('400 method_not_enabled for an account without boleto', async () => {
      const error = await refused(withBody({}, account(['pix', 'card'])));
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error).toMatchObject({ code: 'method_not_enabled', message: 'The payment method boleto is not enabled for this account' });
    });

    it("422 on due_date before today (Brazil's date: 09:00 in Brazil on the 27th is still the 27th)", async () => {
      expect(await refused(withBody({ due_date: '2026-11-26' }))).toMatchObject({ details: { fields: { due_date: ['Must be today or later'] } } });
      const run = ports(ana);
      await expect(createBoletoCharge(run.ports, withBody({ due_date: '2026-11-27' }))).resolves.toBeDefined();
    });

    it('422 on due_date after the last day the barcode due-date factor carries in its cycle (2049-10-13)', async () => {
      expect(await refused(withBody({ due_date: '2049-10-14' }))).toMatchObject({
        details: { fields: { due_date: ['Must be 2049-10-13 or earlier: a boleto barcode cannot carry a later due date'] } },
      });
      const run = ports(ana);
      await expect(createBoletoCharge(run.ports, withBody({ due_date: '2049-10-13' }))).resolves.toBeDefined();
    });

    it("422 on amount beyond the boleto's ceiling, on discount for a zero total", async () => {
      const over = (RAIL_LIMIT_CENTS.boleto + 1) as Cents;
      expect(await refused(withBody({ amount: over }))).toMatchObject({ details: { fields: { amount: [expect.stringContaining('boleto can carry')] } } });
      expect(await refused(withBody({ discount: 100 }))).toMatchObject({ details: { fields: { discount: ['The total must be at least 0.01'] } } });
      const run = ports(ana);
      const { answer } = await createBoletoCharge(run.ports, withBody({ amount: RAIL_LIMIT_CENTS.boleto as Cents }));
      expect(answer.totalCents).toBe(RAIL_LIMIT_CENTS.boleto);
    });
  });

  it('the invoice takes the total from amount, quantity, tax and discount, and the fields of the request', async () => {
    const run = ports(ana);
    const { answer } = await createBoletoCharge(run.ports, withBody({ amount: requestCents(10.05), quantity: 3, tax: 10, discount: 5, notes: 'n' }));
    expect(answer).toMatchObject({
      accountId: 'acct_1',
      merchantName: 'Loja',
      invoiceNo: 'N1',
      itemName: 'Item',
      amountCents: 1_005,
      quantity: 3,
      totalCents: 3_166,
      notes: 'n',
    });
    expect(run.asked[0]?.amountCents).toBe(3_166);
    expect(answer.late).toBeUndefined();
  });

  describe('a BolePix: the boleto and its due-date Pix half (issue 28)', () => {
    const late = { fineBasisPoints: 200, interestBasisPointsAMonth: 100, daysAfterDue: 10 };
    /** The request of an account with Pix enabled (a BolePix), with late-payment fields. */
    const bolePix = (fields: { fine?: number; interest?: number; days_after_due?: number } = {}) => withBody(fields, account(['boleto', 'pix']));

    function bolePixPorts(customer: Customer, pixFails = false) {
      const run = ports(customer);
      const dueAsked: PixDueChargeRequest[] = [];
      const writtenOff: string[] = [];
      const all = {
        ...run.ports,
        provider: { ...run.ports.provider, writeOffBoleto: async (reference: string) => (writtenOff.push(reference), 'written_off' as const) },
        pixDue: {
          name: 'apipix',
          dueCharges: {
            create: async (due: PixDueChargeRequest) => {
              dueAsked.push(due);
              if (pixFails) throw new ProviderError('down');
              return { txid: due.txid, location: 'psp.example/cobv/1', copy: '00020101021226830014br.gov.bcb.pix6304ABCD' };
            },
          },
        },
      };
      return { ...run, dueAsked, writtenOff, ports: all };
    }

    it("registers the Pix half after the boleto for the same total, due date, payer and rules; the invoice carries both and the half's provider", async () => {
      const run = bolePixPorts(ana);
      const { answer } = await createBoletoCharge(run.ports, bolePix({ fine: 200, interest: 100, days_after_due: 10 }));
      expect(run.asked).toHaveLength(1);
      expect(run.dueAsked).toEqual([
        {
          reference: 'INV-BOLETO',
          txid: expect.stringMatching(/^INVBOLETO[A-Za-z0-9]{23}$/),
          amountCents: 5_000,
          dueDate: '2026-12-10',
          merchantName: 'Loja',
          payer: { name: 'Ana', email: 'ana@example.com', document: '52998224725' },
          late,
        },
      ]);
      expect(answer).toMatchObject({ method: 'boleto', late, provider: 'simulated', pix: { txid: run.dueAsked[0]?.txid, provider: 'apipix' } });
      expect(answer.pix?.qrPng).toEqual(qrCodes.png('00020101021226830014br.gov.bcb.pix6304ABCD'));
    });

    it('a Pix half that fails: 502, and the boleto just registered is written off', async () => {
      const run = bolePixPorts(ana, true);
      await expect(createBoletoCharge(run.ports, bolePix())).rejects.toMatchObject({ kind: 'upstream_failed', message: 'down' });
      expect(run.writtenOff).toEqual(['INV-BOLETO']);
    });

    it("a payer's name longer than API Pix carries (200) is refused on customer before anyone is asked; a plain boleto keeps it", async () => {
      const long = { ...ana, name: 'A'.repeat(201) };
      const run = bolePixPorts(long);
      await expect(createBoletoCharge(run.ports, bolePix())).rejects.toMatchObject({
        details: { fields: { customer: [expect.stringContaining('200')] } },
      });
      expect([...run.asked, ...run.dueAsked]).toEqual([]);
      const plain = ports(long);
      expect((await createBoletoCharge(plain.ports, request)).answer.pix).toBeUndefined();
    });

    it('an account without Pix gets a plain boleto though the Pix provider offers due-date charges (no Pix half, no late rules)', async () => {
      const run = bolePixPorts(ana);
      const { answer } = await createBoletoCharge(run.ports, request);
      expect(run.dueAsked).toEqual([]);
      expect(answer.pix).toBeUndefined();
      expect(answer.late).toBeUndefined();
    });

    it('a BolePix asking no late rules gets the defaults (no fine, no interest, 30 days after due) on both rails', async () => {
      const run = bolePixPorts(ana);
      const { answer } = await createBoletoCharge(run.ports, bolePix());
      const defaults = { fineBasisPoints: 0, interestBasisPointsAMonth: 0, daysAfterDue: 30 };
      expect(run.dueAsked[0]?.late).toEqual(defaults);
      expect(answer.late).toEqual(defaults);
    });
  });
});

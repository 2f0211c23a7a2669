import { describe, expect, it } from 'vitest';
import { createBoletoCharge, type BoletoChargeRequest } from '../../../../shared/app/charges/create-boleto-charge';
import type { Customer } from '../../../../shared/domain/customer';
import { ValidationError } from '../../../../shared/domain/errors';
import type { CustomerStore } from '../../../../shared/ports/customers';
import type { BoletoRequest, PixDueChargeRequest } from '../../../../shared/ports/payment-provider';
import { ProviderError } from '../../../../shared/ports/payment-provider';

const now = new Date('2026-11-27T12:00:00.000Z');
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
  const customers: CustomerStore = {
    get: async (accountId, id) => (customer && accountId === customer.accountId && id === customer.id ? customer : undefined),
    list: async () => [],
  };
  return {
    asked,
    ports: {
      ids: { unused: async () => ({ invoiceId: 9, reference: 'INV-BOLETO' }) },
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
    },
  };
}

const request: BoletoChargeRequest = {
  accountId: 'acct_1',
  customerId: 42,
  base: () => ({
    accountId: 'acct_1',
    merchantName: 'Loja',
    invoiceNo: 'N1',
    itemName: 'Item',
    quantity: 1,
    amountCents: 5_000,
    tax: 0,
    discount: 0,
    totalCents: 5_000,
    createdAt: now.toISOString(),
  }),
  totalCents: 5_000,
  dueDate: '2026-12-10',
  merchantName: 'Loja',
  instructions: 'Não receber após o vencimento',
  failure: 'down',
  now,
};

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

  describe('a BolePix: the boleto and its due-date Pix half (issue 28)', () => {
    const late = { fineBasisPoints: 200, interestBasisPointsAMonth: 100, daysAfterDue: 10 };

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
      const { answer } = await createBoletoCharge(run.ports, { ...request, late });
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
      expect(answer.pix?.qrPng?.length).toBeGreaterThan(0);
    });

    it('a Pix half that fails: 502, and the boleto just registered is written off', async () => {
      const run = bolePixPorts(ana, true);
      await expect(createBoletoCharge(run.ports, { ...request, late })).rejects.toMatchObject({ kind: 'upstream_failed', message: 'down' });
      expect(run.writtenOff).toEqual(['INV-BOLETO']);
    });

    it("a payer's name longer than API Pix carries (200) is refused on customer before anyone is asked; a plain boleto keeps it", async () => {
      const long = { ...ana, name: 'A'.repeat(201) };
      const run = bolePixPorts(long);
      await expect(createBoletoCharge(run.ports, { ...request, late })).rejects.toMatchObject({
        details: { fields: { customer: [expect.stringContaining('200')] } },
      });
      expect([...run.asked, ...run.dueAsked]).toEqual([]);
      const plain = ports(long);
      expect((await createBoletoCharge(plain.ports, request)).answer.pix).toBeUndefined();
    });
  });
});

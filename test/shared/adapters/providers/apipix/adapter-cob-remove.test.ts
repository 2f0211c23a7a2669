import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brazilDate } from '../../../../../shared/domain/brazil-dates';
import { apiPixProviderWith, type ApiPixProvider } from '../../../../../shared/adapters/providers/apipix/adapter';
import { ProviderError, type PixChargeRequest } from '../../../../../shared/ports/payment-provider';
import { simulatedProvider } from '../../../../../shared/adapters/providers/simulated';
import { generateApiPixCertificates, type ApiPixCertificates } from '../../../../support/apipix-certificates';
import { startTestPsp, testPspClient, type TestPsp } from '../../../../support/apipix-psp';

/**
 * Issue 46: the withdrawal of an immediate charge (removePixCharge: PATCH /cob/{txid} with status
 * REMOVIDA_PELO_USUARIO_RECEBEDOR) against the loopback test PSP, which validates the body with the
 * standard's CobRevisada (test/fixtures/apipix/cob-schemas.json). Idempotent: a charge withdrawn before
 * answers removed; a paid one paid; an unknown one unknown.
 */

let certificates: ApiPixCertificates;
let psp: TestPsp;
let adapter: ApiPixProvider;

beforeAll(async () => {
  certificates = await generateApiPixCertificates();
  psp = await startTestPsp({ certificates });
  const client = testPspClient(psp, certificates, 1_000);
  adapter = apiPixProviderWith({ pixKey: psp.pixKey }, client);
});

afterAll(async () => {
  await psp.close();
});

let counter = 0;
function request(): PixChargeRequest {
  counter += 1;
  const txid = `cobremove${Date.now().toString(36)}${String(counter).padStart(4, '0')}`.padEnd(32, 'x').slice(0, 32);
  return { reference: 'INV-ABCDEF', txid, amountCents: 12_345, dueDate: brazilDate(new Date(Date.now() + 86_400_000)), merchantName: 'Loja', payer: {} };
}

const calls = (txid: string) => psp.requests.filter((r) => r.path === `/v2/cob/${txid}`).map((r) => `${r.method} ${r.status}`);
const held = (txid: string) => psp.cobs.get(txid) as { status: string; revisao: number } | undefined;

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('removePixCharge (API Pix PATCH /cob/{txid})', () => {
  it('withdraws an active charge, and a second call (a retry after a lost answer) answers removed again without a second revision', async () => {
    const charge = request();
    await adapter.charges.pix(charge);
    await expect(adapter.removePixCharge(charge.txid)).resolves.toBe('removed');
    expect(held(charge.txid)).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
    expect(psp.requestBodies.filter((r) => r.method === 'PATCH' && r.path === `/v2/cob/${charge.txid}`).map((r) => r.body)).toEqual([
      { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
    ]);
    await expect(adapter.removePixCharge(charge.txid)).resolves.toBe('removed');
    expect(calls(charge.txid)).toEqual(['PUT 201', 'PATCH 200', 'PATCH 400', 'GET 200']);
  });

  it('answers removed for a charge the PSP removed itself (expired)', async () => {
    const charge = request();
    await adapter.charges.pix(charge);
    psp.remove(charge.txid);
    await expect(adapter.removePixCharge(charge.txid)).resolves.toBe('removed');
  });

  it('answers paid for a paid charge, which stays paid', async () => {
    const charge = request();
    await adapter.charges.pix(charge);
    psp.pay(charge.txid);
    await expect(adapter.removePixCharge(charge.txid)).resolves.toBe('paid');
    expect(held(charge.txid)?.status).toBe('CONCLUIDA');
  });

  it('answers unknown for a txid the PSP does not know', async () => {
    const { txid } = request();
    await expect(adapter.removePixCharge(txid)).resolves.toBe('unknown');
    expect(calls(txid)).toEqual(['PATCH 404', 'GET 404']);
  });

  it('fails (ProviderError) when the PSP fails', async () => {
    const charge = request();
    await adapter.charges.pix(charge);
    psp.fail({ method: 'PATCH', path: new RegExp(`/cob/${charge.txid}$`), times: 1, mode: 'error500' });
    expect(await rejectionOf(adapter.removePixCharge(charge.txid))).toBeInstanceOf(ProviderError);
    expect(held(charge.txid)?.status).toBe('ATIVA');
  });

  it('the test PSP refuses a PATCH body the standard refuses (a status other than the withdrawal)', async () => {
    const charge = request();
    await adapter.charges.pix(charge);
    const client = testPspClient(psp, certificates, 1_000);
    const reply = await client.call('PATCH', `/cob/${charge.txid}`, { status: 'CONCLUIDA' });
    expect(reply.status).toBe(400);
    expect(held(charge.txid)?.status).toBe('ATIVA');
  });
});

describe('the simulated provider withdraws its Pix charges', () => {
  it('removed for a charge it registered (again on a retry), unknown otherwise', async () => {
    const provider = simulatedProvider({ locationBase: 'http://localhost' });
    const charge = await provider.charges.pix(request());
    await expect(provider.removePixCharge(charge.txid)).resolves.toBe('removed');
    await expect(provider.removePixCharge(charge.txid)).resolves.toBe('removed');
    expect(provider.removedPix.has(charge.txid)).toBe(true);
    await expect(provider.removePixCharge('unknowntxid0000000000000000000000')).resolves.toBe('unknown');
  });
});

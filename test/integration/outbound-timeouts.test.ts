import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as createBoleto } from '../../functions/charges/boleto';
import { handler as createPix } from '../../functions/charges/pix';
import { handler as putWebhook } from '../../functions/webhooks/put';
import type { ChargeCalls } from '../../shared/ports/payment-provider';
import { paymentProvider } from '../../shared/wiring/provider-registry';
import { routes } from '../../shared/http/routes';
import { getRuntime, overrideRuntime } from '../../shared/wiring/runtime';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { common, createCustomerWithAddress } from '../support/charges';
import { invoke, type Invoked } from '../support/invoke';
import { listedItems } from '../support/ledger';

/**
 * Hard limits on outbound calls made by API routes, in this process against the local stack: the
 * payment provider's Pix charge and boleto registration (PROVIDER_TIMEOUT_MS) and the DNS look-up of
 * a webhook host (DNS_TIMEOUT_MS). Each call is made to hang; without its limit the request would
 * never be answered (and these tests would time out).
 */

const SHORT_MS = 200;

type ProviderCall = 'pix' | 'boleto';

/**
 * Runs `fn` while the simulated provider (the external PSP's stand-in) never answers `method`; the
 * provider's timeout is SHORT_MS meanwhile. Gives the reply and how many calls reached the provider.
 */
async function whileProviderHangs(method: ProviderCall, fn: () => Promise<Invoked>): Promise<{ reply: Invoked; called: number }> {
  const runtime = getRuntime();
  const provider = paymentProvider(runtime.config);
  const charges: { -readonly [M in keyof typeof provider.charges]: (typeof provider.charges)[M] } = provider.charges;
  const original = charges[method];
  let called = 0;
  const hang = () => {
    called += 1;
    return new Promise<never>(() => undefined);
  };
  if (method === 'pix') charges.pix = hang;
  else charges.boleto = hang;
  overrideRuntime({ config: { ...runtime.config, payments: { ...runtime.config.payments, timeoutMs: SHORT_MS } } });
  try {
    return { reply: await fn(), called };
  } finally {
    if (method === 'pix') charges.pix = original as ChargeCalls['pix'];
    else charges.boleto = original as ChargeCalls['boleto'];
    overrideRuntime({ config: runtime.config });
  }
}

describe('payment provider calls of Pix and boleto creation have a hard time limit', () => {
  let auth: Record<string, string>;
  let accountId: string;

  beforeAll(async () => {
    useLocalStackEnvironment();
    const account = await newAccount();
    accountId = account.account_id;
    auth = bearer(await tokenFor(account));
  });

  it('Pix: a provider that never answers → 502 upstream_error after PROVIDER_TIMEOUT_MS, nothing created, the key freed for a retry', async () => {
    const key = `pix-timeout-${Date.now()}`;
    const body = common();
    const { reply: stalled, called } = await whileProviderHangs('pix', () =>
      invoke(createPix, routes.createPix, { headers: { ...auth, 'idempotency-key': key }, body }),
    );
    expect(called).toBe(1);
    expect(stalled.status).toBe(502);
    expect(stalled.json).toMatchObject({ code: 'upstream_error', error: expect.stringContaining('no charge was created') });
    expect(await listedItems(keys.invoiceListPartition(accountId))).toHaveLength(0);

    const retried = await invoke(createPix, routes.createPix, { headers: { ...auth, 'idempotency-key': key }, body });
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await listedItems(keys.invoiceListPartition(accountId))).toHaveLength(1);
  }, 15_000);

  it('boleto: a registration that never answers → 502 upstream_error after PROVIDER_TIMEOUT_MS, nothing created, the key freed for a retry', async () => {
    const account = await newAccount();
    const headers = bearer(await tokenFor(account));
    const customer = await createCustomerWithAddress(headers);
    const key = `boleto-timeout-${Date.now()}`;
    const body = common({ customer });
    const { reply: stalled, called } = await whileProviderHangs('boleto', () =>
      invoke(createBoleto, routes.createBoleto, { headers: { ...headers, 'idempotency-key': key }, body }),
    );
    expect(called).toBe(1);
    expect(stalled.status).toBe(502);
    expect(stalled.json).toMatchObject({ code: 'upstream_error', error: expect.stringContaining('no boleto was created') });
    expect(await listedItems(keys.invoiceListPartition(account.account_id))).toHaveLength(0);

    const retried = await invoke(createBoleto, routes.createBoleto, { headers: { ...headers, 'idempotency-key': key }, body });
    expect(retried.status).toBe(200);
    expect(await listedItems(keys.invoiceListPartition(account.account_id))).toHaveLength(1);
  }, 15_000);
});

describe('PUT /api/webhook: the DNS look-up of the host has a hard time limit', () => {
  beforeAll(() => {
    useLocalStackEnvironment();
  });

  it('a host whose look-up never answers → 422 on url ("DNS lookup timed out"), nothing stored', async () => {
    const account = await newAccount();
    const auth = bearer(await tokenFor(account));
    const runtime = getRuntime();
    const looked: string[] = [];
    overrideRuntime({
      config: { ...runtime.config, webhooks: { ...runtime.config.webhooks, dnsTimeoutMs: SHORT_MS } },
      resolve: (host) => {
        looked.push(host);
        return new Promise<string[]>(() => undefined);
      },
    });
    let reply: Invoked;
    try {
      reply = await invoke(putWebhook, routes.putWebhook, { headers: auth, body: { url: 'https://dns-hangs.example/hooks' } });
    } finally {
      overrideRuntime({ config: runtime.config, resolve: runtime.resolve });
    }
    expect(looked).toEqual(['dns-hangs.example']);
    expect(reply.status).toBe(422);
    expect(reply.json).toEqual({ error: { url: [expect.stringMatching(/^host could not be resolved \(DNS lookup timed out after \d+ ms\)$/)] } });
    const store = accountStore();
    const stored = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.account(account.account_id), ConsistentRead: true }))).Item;
    expect(stored?.webhookUrl).toBeUndefined();
    expect(stored?.webhookSecretSealed).toBeUndefined();
  }, 15_000);
});

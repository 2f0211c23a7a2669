import { describe, expect, it } from 'vitest';
import type { BankPort } from '../../../shared/ports/bank';
import { parseConfig } from '../../../shared/platform/config';
import type { PaymentProvider } from '../../../shared/ports/payment-provider';
import { ProviderError } from '../../../shared/ports/payment-provider';
import { bank, createRegistry, defaultRegistry, paymentProvider, servesCardAndBoleto, UnknownAdapterError } from '../../../shared/wiring/provider-registry';
import { PAYMENT_METHODS } from '../../../shared/domain/payment-methods';
import { simulatedProvider, type SimulatedProvider } from '../../../shared/adapters/providers/simulated';

const config = parseConfig({ TABLE_NAME: 'payment-gateway-test', MASTER_KEY_SECRET_ID: 'payment-gateway/test/master-key' });

/** A provider adapter answering to `name` (the simulated one's behaviour under another name). */
function providerNamed(name: string): PaymentProvider {
  return { ...simulatedProvider({ locationBase: 'https://psp.example' }), name };
}

function bankNamed(name: string): BankPort {
  return { name, requestPayout: async () => undefined };
}

/** A registry whose factories count how often they are called. */
function countingRegistry() {
  const made: string[] = [];
  const registry = createRegistry({
    paymentProviders: {
      alpha: () => (made.push('provider:alpha'), providerNamed('alpha')),
      beta: () => (made.push('provider:beta'), providerNamed('beta')),
    },
    banks: { alpha: () => (made.push('bank:alpha'), bankNamed('alpha')) },
  });
  return { registry, made };
}

describe('the provider registry', () => {
  it('creates each adapter once per name: the same instance answers every later call', () => {
    const { registry, made } = countingRegistry();
    const first = registry.paymentProvider(config, 'alpha');
    expect(registry.paymentProvider(config, 'alpha')).toBe(first);
    const beta = registry.paymentProvider(config, 'beta');
    expect(beta).not.toBe(first);
    expect(beta.name).toBe('beta');
    expect(registry.paymentProvider(config, 'beta')).toBe(beta);
    expect(made).toEqual(['provider:alpha', 'provider:beta']);
  });

  it('keeps payment providers and banks apart: the same name is a different adapter of each port', () => {
    const { registry, made } = countingRegistry();
    const provider = registry.paymentProvider(config, 'alpha');
    const paying = registry.bank(config, 'alpha');
    expect(paying).not.toBe(provider);
    expect(registry.bank(config, 'alpha')).toBe(paying);
    expect(made).toEqual(['provider:alpha', 'bank:alpha']);
    expect(() => registry.bank(config, 'beta')).toThrow(UnknownAdapterError);
  });

  it('resolves the configured names by default (PAYMENT_PROVIDER for Pix, the card-and-boleto provider, BANK_PROVIDER)', () => {
    const { registry } = countingRegistry();
    const configured = {
      ...config,
      payments: { ...config.payments, provider: 'alpha', cardAndBoletoProvider: 'beta' },
      payouts: { ...config.payouts, bank: 'alpha' },
    };
    expect(registry.pixProvider(configured).name).toBe('alpha');
    expect(registry.paymentProvider(configured).name).toBe('beta');
    expect(registry.paymentProvider(configured)).toBe(registry.paymentProvider(config, 'beta'));
    expect(registry.bank(configured).name).toBe('alpha');
    // The shipped configuration names the simulated adapters, which this registry does not hold.
    expect(() => registry.paymentProvider(config)).toThrow(UnknownAdapterError);
    expect(() => registry.pixProvider(config)).toThrow(UnknownAdapterError);
  });

  it('a Pix-only provider (API Pix) serves Pix charges but is no card and boleto provider', () => {
    const registry = createRegistry({
      paymentProviders: { pixonly: () => ({ name: 'pixonly', charges: { pix: async () => ({ txid: 't', location: 'l', copy: 'c' }) } }) },
      banks: {},
    });
    expect(registry.pixProvider(config, 'pixonly').name).toBe('pixonly');
    expect(() => registry.paymentProvider(config, 'pixonly')).toThrow('No card and boleto provider is named "pixonly"');
  });

  it("a payment provider serves every method's charge call (the simulated one does); one lacking a method's call is not one", () => {
    const simulated = simulatedProvider({ locationBase: 'https://pay.example' });
    expect(Object.keys(simulated.charges).sort()).toEqual([...PAYMENT_METHODS].sort());
    expect(servesCardAndBoleto(simulated)).toBe(true);
    const { card: _card, ...withoutCard } = simulated.charges;
    expect(servesCardAndBoleto({ ...simulated, charges: withoutCard })).toBe(false);
  });

  it.each(['unknown', '', 'Alpha', '__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'an unknown name (%j) is an UnknownAdapterError naming the port',
    (name) => {
      const { registry, made } = countingRegistry();
      let providerError: unknown;
      try {
        registry.paymentProvider(config, name);
      } catch (err) {
        providerError = err;
      }
      expect(providerError).toBeInstanceOf(UnknownAdapterError);
      expect(providerError).toMatchObject({ port: 'payment provider', adapterName: name });
      expect(() => registry.bank(config, name)).toThrow(expect.objectContaining({ name: 'UnknownAdapterError', port: 'bank', adapterName: name }));
      expect(made).toEqual([]);
    },
  );

  it('registers a new adapter by name, refusing a name already taken', () => {
    const { registry } = countingRegistry();
    registry.registerPaymentProvider('gamma', () => providerNamed('gamma'));
    registry.registerBank('gamma', () => bankNamed('gamma'));
    expect(registry.paymentProvider(config, 'gamma').name).toBe('gamma');
    expect(registry.bank(config, 'gamma').name).toBe('gamma');
    expect(registry.paymentProviderNames().sort()).toEqual(['alpha', 'beta', 'gamma']);
    expect(registry.bankNames().sort()).toEqual(['alpha', 'gamma']);
    expect(() => registry.registerPaymentProvider('alpha', () => providerNamed('alpha'))).toThrow(/already registered/);
    expect(() => registry.registerBank('gamma', () => bankNamed('gamma'))).toThrow(/already registered/);
    expect(() => registry.registerBank('', () => bankNamed(''))).toThrow(/needs a name/);
  });

  it('refuses an adapter that calls itself by another name than the one it is registered under (records name their adapter)', () => {
    const { registry } = countingRegistry();
    registry.registerPaymentProvider('delta', () => providerNamed('epsilon'));
    expect(() => registry.paymentProvider(config, 'delta')).toThrow(/registered as delta calls itself epsilon/);
  });

  it('the service’s registry holds the simulated adapters, once per container, behind the module functions', () => {
    expect(defaultRegistry.paymentProviderNames()).toContain('simulated');
    expect(defaultRegistry.bankNames()).toContain('simulated');
    const provider = paymentProvider(config);
    expect(provider.name).toBe('simulated');
    expect(paymentProvider(config, 'simulated')).toBe(provider);
    expect(bank(config).name).toBe('simulated');
    expect(bank(config, 'simulated')).toBe(bank(config));
    expect(() => paymentProvider(config, 'acme')).toThrow(UnknownAdapterError);
    expect(() => bank(config, 'acme')).toThrow(UnknownAdapterError);
  });
});

describe('the simulated provider’s registrations are idempotent by reference', () => {
  const pix = (reference: string, txid: string) => ({ reference, txid, amountCents: 1_000, dueDate: '2030-01-01', merchantName: 'Loja', payer: {} });
  const boleto = (reference: string, invoiceId: number) => ({
    reference,
    invoiceId,
    amountCents: 2_500,
    dueDate: '2030-01-01',
    merchantName: 'Loja',
    payer: { name: 'Maria', document: '12345678909' },
  });

  it('a second Pix charge with the same reference answers the first one and registers nothing new', async () => {
    const provider: SimulatedProvider = simulatedProvider({ locationBase: 'https://psp.example' });
    const first = await provider.charges.pix(pix('INV-AAAAAA', 'INVAAAAAA00000000000000000000001'));
    const again = await provider.charges.pix(pix('INV-AAAAAA', 'INVAAAAAA00000000000000000000002'));
    expect(again).toEqual(first);
    expect(first.txid).toBe('INVAAAAAA00000000000000000000001');
    expect(provider.registrations.size).toBe(1);
    const other = await provider.charges.pix(pix('INV-BBBBBB', 'INVBBBBBB00000000000000000000001'));
    expect(other.location).not.toBe(first.location);
    expect(provider.registrations.size).toBe(2);
  });

  it('a second boleto with the same reference answers the first one; a Pix charge under a boleto’s reference is refused', async () => {
    const provider = simulatedProvider({ locationBase: 'https://psp.example' });
    const first = await provider.charges.boleto(boleto('INV-CCCCCC', 1_000_001));
    expect(await provider.charges.boleto(boleto('INV-CCCCCC', 1_000_002))).toEqual(first);
    expect(provider.registrations.size).toBe(1);
    expect(provider.registrations.get('INV-CCCCCC')).toEqual({ kind: 'boleto', boleto: first });
    await expect(provider.charges.pix(pix('INV-CCCCCC', 'INVCCCCCC00000000000000000000001'))).rejects.toThrow(ProviderError);
    expect(provider.registrations.size).toBe(1);
  });
});

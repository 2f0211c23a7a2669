import type { BankPort } from '../ports/bank';
import { simulatedBank } from '../adapters/bank/simulated';
import type { Config } from '../platform/config';
import type { PaymentMethod } from '../domain/payment-methods';
import { MethodNotServedError, type PaymentProvider, type PixProvider, serves, type ServingProvider } from '../ports/payment-provider';
import { simulatedProvider } from '../adapters/providers/simulated';

/**
 * The registry of adapters, without the Pix-only ones (./provider-registry.ts adds API Pix), so that the card
 * functions, which resolve only card-and-boleto providers and banks, bundle no API Pix client (issue 26's
 * 450 KB). The one place the payment provider and the bank are resolved: BY NAME, from the configuration
 * (PAYMENT_PROVIDER for Pix, the card-and-boleto provider, BANK_PROVIDER) or from what a record
 * names (an invoice's `provider`, a withdraw's `bank`). Per method: Pix charges go to the configured
 * PAYMENT_PROVIDER (simulated or API Pix); card and boleto charges to a provider that serves them
 * (only the simulated one so far): `pixProvider` and `paymentProvider`. Each adapter is created on its first use and kept per name for the container's life (an
 * in-process simulation keeps its state; a real adapter its connections). A name no adapter answers
 * to is an UnknownAdapterError, never a fallback to another adapter.
 */

/** A provider adapter: a full PaymentProvider (Pix, boleto, card) or a Pix-only one (API Pix). */
export type PaymentProviderFactory = (config: Config) => PixProvider;
export type BankFactory = (config: Config) => BankPort;

export type AdapterPort = 'payment provider' | 'card and boleto provider' | 'bank';

/** No adapter of that port answers to that name (a configuration error, or a path naming no provider). */
export class UnknownAdapterError extends Error {
  constructor(
    readonly port: AdapterPort,
    readonly adapterName: string,
  ) {
    super(`No ${port} is named ${JSON.stringify(adapterName.slice(0, 60))}`);
    this.name = 'UnknownAdapterError';
  }
}

export type AdapterRegistry = {
  /** The Pix provider named `name` (default: the configured PAYMENT_PROVIDER); any provider serves Pix. */
  pixProvider(config: Config, name?: string): PixProvider;
  /** The card and boleto provider named `name` (default: the configured one); a Pix-only provider is not one. */
  paymentProvider(config: Config, name?: string): PaymentProvider;
  /** The provider named `name` (default: the configured card-and-boleto provider) for a method: MethodNotServedError when it does not serve it. */
  providerServing<M extends PaymentMethod>(config: Config, method: M, name?: string): ServingProvider<M>;
  /** The bank named `name` (default: the configured BANK_PROVIDER). */
  bank(config: Config, name?: string): BankPort;
  /** Adds a payment provider adapter under a name not taken yet (a real PSP's adapter; a test's). */
  registerPaymentProvider(name: string, factory: PaymentProviderFactory): void;
  /** Adds a bank adapter under a name not taken yet. */
  registerBank(name: string, factory: BankFactory): void;
  paymentProviderNames(): string[];
  bankNames(): string[];
};

type Adapter = { readonly name: string };

/** One port's adapters: factories and the instances made from them, each keyed by name. */
function adapters<T extends Adapter>(port: AdapterPort, initial: Readonly<Record<string, (config: Config) => T>>) {
  // Maps, not objects: a name from a request path ('__proto__', 'constructor') finds nothing.
  const factories = new Map<string, (config: Config) => T>(Object.entries(initial));
  const instances = new Map<string, T>();
  return {
    resolve(config: Config, name: string): T {
      const known = instances.get(name);
      if (known) return known;
      const factory = factories.get(name);
      if (!factory) throw new UnknownAdapterError(port, name);
      const created = factory(config);
      // Records name their adapter: one that calls itself otherwise would be found again under another name.
      if (created.name !== name) throw new Error(`The ${port} registered as ${name} calls itself ${created.name}`);
      instances.set(name, created);
      return created;
    },
    register(name: string, factory: (config: Config) => T): void {
      if (name.length === 0) throw new Error(`A ${port} needs a name`);
      if (factories.has(name)) throw new Error(`A ${port} is already registered as ${name}`);
      factories.set(name, factory);
    },
    names: (): string[] => [...factories.keys()],
  };
}

/** A registry over the given adapters (the service's own is `defaultRegistry`; tests may build others). */
export function createRegistry(initial: {
  paymentProviders: Readonly<Record<string, PaymentProviderFactory>>;
  banks: Readonly<Record<string, BankFactory>>;
}): AdapterRegistry {
  const providers = adapters<PixProvider>('payment provider', initial.paymentProviders);
  const banks = adapters<BankPort>('bank', initial.banks);
  return {
    pixProvider: (config, name = config.payments.provider) => providers.resolve(config, name),
    paymentProvider: (config, name = config.payments.cardAndBoletoProvider) => {
      const provider = providers.resolve(config, name);
      if (!servesCardAndBoleto(provider)) throw new UnknownAdapterError('card and boleto provider', name);
      return provider;
    },
    providerServing: (config, method, name = config.payments.cardAndBoletoProvider) => {
      const provider = providers.resolve(config, name);
      if (!serves(provider, method)) throw new MethodNotServedError(name, method);
      return provider as ServingProvider<typeof method>;
    },
    bank: (config, name = config.payouts.bank) => banks.resolve(config, name),
    registerPaymentProvider: (name, factory) => providers.register(name, factory),
    registerBank: (name, factory) => banks.register(name, factory),
    paymentProviderNames: providers.names,
    bankNames: banks.names,
  };
}

/** Whether a provider is a card and boleto provider (the simulated one): it serves both, with their follow-up calls; API Pix serves Pix only. */
export function servesCardAndBoleto(provider: PixProvider): provider is PaymentProvider {
  const calls = provider as Partial<Record<'cardAuthorizationStatus' | 'voidCard' | 'writeOffBoleto', unknown>>;
  return (
    serves(provider, 'boleto') &&
    serves(provider, 'card') &&
    [calls.cardAuthorizationStatus, calls.voidCard, calls.writeOffBoleto].every((call) => typeof call === 'function')
  );
}

/** The adapters every function may resolve: the simulated provider and bank (./provider-registry.ts adds API Pix for Pix charges). */
export const CORE_ADAPTERS = {
  paymentProviders: {
    simulated: (config: Config) => simulatedProvider({ locationBase: config.publicBaseUrl }),
  },
  banks: { simulated: () => simulatedBank() },
} as const;

/** The container's registry: every handler and worker resolves through it (./provider-registry.ts adds API Pix to it when a function resolves Pix providers). */
export const defaultRegistry: AdapterRegistry = createRegistry(CORE_ADAPTERS);

/** The card and boleto provider named `name` (default: the configured one); UnknownAdapterError when none is. */
export function paymentProvider(config: Config, name?: string): PaymentProvider {
  return defaultRegistry.paymentProvider(config, name);
}

/** The bank named `name` (default: the configured one); UnknownAdapterError when none is. */
export function bank(config: Config, name?: string): BankPort {
  return defaultRegistry.bank(config, name);
}

import { describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../../shared/wiring/adapter-registry';
import { BUILT_IN_ADAPTERS, pixProvider } from '../../../shared/wiring/provider-registry';
import { reachable } from '../../support/reachable';

describe('the card functions bundle no Pix-only provider (issue 26: every function within 450 KB)', () => {
  it.each(['functions/charges/card.ts', 'functions/checkout/card.ts'])('%s reaches neither API Pix nor the Pix registry', (entry) => {
    const files = reachable(entry);
    expect(files.has('shared/wiring/adapter-registry.ts')).toBe(true);
    expect([...files].filter((file) => file.startsWith('shared/adapters/providers/apipix/') || file === 'shared/wiring/provider-registry.ts')).toEqual([]);
  });

  it('a Pix function reaches API Pix (the check can fail)', () => {
    expect(reachable('functions/charges/pix.ts').has('shared/adapters/providers/apipix/adapter.ts')).toBe(true);
  });

  it('the Pix registry adds API Pix to the one registry every function resolves through', () => {
    expect(defaultRegistry.paymentProviderNames().sort()).toEqual(Object.keys(BUILT_IN_ADAPTERS.paymentProviders).sort());
    expect(defaultRegistry.paymentProviderNames()).toContain('apipix');
    expect(typeof pixProvider).toBe('function');
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { defaultRegistry } from '../../../shared/providers/adapter-registry';
import { BUILT_IN_ADAPTERS, pixProvider } from '../../../shared/providers/registry';

const ROOT = resolve(__dirname, '../../..');

/** Every source file a file reaches through its relative imports (what its bundle holds of this project). */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [join(ROOT, entry)];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const base = resolve(dirname(file), fileName);
      const found = [`${base}.ts`, join(base, 'index.ts'), base].find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
      if (found) queue.push(found);
    }
  }
  return new Set([...seen].map((file) => relative(ROOT, file).split(sep).join('/')));
}

describe('the card functions bundle no Pix-only provider (issue 26: every function within 450 KB)', () => {
  it.each(['functions/charges/card.ts', 'functions/checkout/card.ts'])('%s reaches neither API Pix nor the Pix registry', (entry) => {
    const files = reachable(entry);
    expect(files.has('shared/providers/adapter-registry.ts')).toBe(true);
    expect([...files].filter((file) => file.startsWith('shared/providers/apipix/') || file === 'shared/providers/registry.ts')).toEqual([]);
  });

  it('a Pix function reaches API Pix (the check can fail)', () => {
    expect(reachable('functions/charges/pix.ts').has('shared/providers/apipix/adapter.ts')).toBe(true);
  });

  it('the Pix registry adds API Pix to the one registry every function resolves through', () => {
    expect(defaultRegistry.paymentProviderNames().sort()).toEqual(Object.keys(BUILT_IN_ADAPTERS.paymentProviders).sort());
    expect(defaultRegistry.paymentProviderNames()).toContain('apipix');
    expect(typeof pixProvider).toBe('function');
  });
});

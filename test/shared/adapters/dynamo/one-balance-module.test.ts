import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const THE_MODULE = 'shared/adapters/dynamo/ledger.ts';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * An update expression that changes a balance attribute (available or reserved): `ADD availableCents …`,
 * `SET reservedCents = …`, or an action built from parts (`'availableCents :available'`).
 */
const BALANCE_CHANGE =
  /\b(ADD|SET)\s+(availableCents|reservedCents)\b|(availableCents|reservedCents)\s*=\s*(availableCents|reservedCents)|['`](availableCents|reservedCents)\s+:/;

describe('one balance module (issue 11)', () => {
  it(`no code but ${THE_MODULE} changes the balance item (every movement leaves a ledger entry)`, () => {
    const offenders = ['shared', 'functions', 'infra']
      .flatMap((dir) => sources(join(ROOT, dir)))
      .map((path) => relative(ROOT, path))
      .filter((path) => path !== THE_MODULE && BALANCE_CHANGE.test(readFileSync(join(ROOT, path), 'utf8')));
    expect(offenders).toEqual([]);
    expect(BALANCE_CHANGE.test(readFileSync(join(ROOT, THE_MODULE), 'utf8'))).toBe(true);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The domain room (issue 32, ../shared/notes/layout.md): typed records and pure rules, values in and
 * values out. A file under shared/domain/ imports only other files of shared/domain/ and the pure
 * libraries below: no AWS SDK, no http/, storage, runtime, clock or randomness (node:crypto), no app/
 * or adapters/. Every import form counts (static, type-only, re-exports, dynamic, require).
 */
const ROOT = resolve(__dirname, '../../..');
const DOMAIN = join(ROOT, 'shared', 'domain');
/** Pure libraries: no IO, no clock, no randomness. zod describes the shapes a method's row shows (shared/domain/payment-methods.ts). */
// The password strength estimator (issue 43) is pure too: text in, a score out, its dictionaries in the package.
// credit-card-type (issue 45, the card checks in shared/domain/card.ts) is a table of brand prefixes: a number in, its brands out.
const PURE_PACKAGES = [
  'big.js',
  'zod',
  'credit-card-type',
  '@zxcvbn-ts/core',
  '@zxcvbn-ts/language-common',
  '@zxcvbn-ts/language-en',
  '@zxcvbn-ts/language-pt-br',
  // Issue 45: the reference tables (countries), the CPF/CNPJ check digits, and Buffer's UTF-8 check.
  'world-countries',
  'cpf-cnpj-validator',
  'node:buffer',
];

/** node:crypto's deterministic functions (hashes, HMACs, key derivation, constant-time comparison): values in, values out. Its random ones are not. */
const DETERMINISTIC_CRYPTO = ['createHash', 'createHmac', 'hkdfSync', 'timingSafeEqual'];

/** Whether every import of node:crypto in a source names only deterministic functions (a namespace or dynamic import never does). */
function cryptoIsDeterministic(source: string): boolean {
  const named = [...source.matchAll(/import\s*(type\s*)?\{([^}]*)\}\s*from\s*['"]node:crypto['"]/g)];
  const all = ts.preProcessFile(source, true, true).importedFiles.filter((f) => f.fileName === 'node:crypto').length;
  if (named.length !== all) return false;
  return named.every((match) =>
    (match[2] ?? '')
      .split(',')
      .map((name) => name.trim().split(/\s+as\s+/)[0] ?? '')
      .filter(Boolean)
      .every((name) => DETERMINISTIC_CRYPTO.includes(name)),
  );
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() && entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The imports of a domain file that leave the domain (relative ones outside shared/domain/, or packages not listed as pure). */
function outsideImports(file: string, source: string): string[] {
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((spec) => {
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec);
        return !(target === DOMAIN || target.startsWith(DOMAIN + sep));
      }
      if (spec === 'node:crypto') return !cryptoIsDeterministic(source);
      return !PURE_PACKAGES.includes(spec);
    });
}

describe('the domain room', () => {
  it('finds imports that leave the domain, and lets domain and pure imports be', () => {
    const file = join(DOMAIN, 'x.ts');
    const source = [
      "import Big from 'big.js';",
      "import { a } from './money';",
      "import type { B } from '../storage/dynamo';",
      "import { randomUUID } from 'node:crypto';",
      "import { C } from '@aws-sdk/lib-dynamodb';",
      "export { d } from '../http/answer';",
      "const e = await import('../runtime');",
    ].join('\n');
    expect(outsideImports(file, source)).toEqual(['../storage/dynamo', 'node:crypto', '@aws-sdk/lib-dynamodb', '../http/answer', '../runtime']);
    expect(outsideImports(file, "import { createHmac, timingSafeEqual } from 'node:crypto';")).toEqual([]);
    expect(outsideImports(file, "import { createHmac, randomBytes } from 'node:crypto';")).toEqual(['node:crypto']);
    expect(outsideImports(file, "import * as crypto from 'node:crypto';")).toEqual(['node:crypto']);
  });

  it('imports nothing outside shared/domain/ but pure libraries', () => {
    const files = filesUnder(DOMAIN);
    expect(files.length).toBeGreaterThanOrEqual(6);
    const offenders = files.flatMap((file) => outsideImports(file, readFileSync(file, 'utf8')).map((spec) => `${relative(ROOT, file)} → ${spec}`));
    expect(offenders).toEqual([]);
  });
});

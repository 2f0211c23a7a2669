import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_SHIMS, builtinShimPath, builtinShimSource, LAMBDA_BUNDLE_ALIASES } from '../../infra/cdk/bundling';

const ROOT = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);

describe('the built-in shims of the Lambda bundles (infra/bundle-shims, infra/cdk/bundling.ts)', () => {
  it('has exactly one file per listed built-in, holding the generated text', () => {
    const files = readdirSync(join(ROOT, 'infra', 'bundle-shims')).sort();
    expect(files).toEqual(BUILTIN_SHIMS.map((b) => builtinShimPath(b).split('/').at(-1)).sort());
    for (const builtin of BUILTIN_SHIMS) expect(readFileSync(join(ROOT, builtinShimPath(builtin)), 'utf8'), builtin).toBe(builtinShimSource(builtin));
  });

  it('each shim is the very module object of its built-in', () => {
    for (const builtin of BUILTIN_SHIMS) expect(require(join(ROOT, builtinShimPath(builtin))), builtin).toBe(process.getBuiltinModule(`node:${builtin}`));
  });

  it('aliases both spellings of each built-in (node:x and x) to its shim', () => {
    for (const builtin of BUILTIN_SHIMS) {
      expect(LAMBDA_BUNDLE_ALIASES[`node:${builtin}`]).toBe(builtinShimPath(builtin));
      expect(LAMBDA_BUNDLE_ALIASES[builtin]).toBe(builtinShimPath(builtin));
    }
  });
});

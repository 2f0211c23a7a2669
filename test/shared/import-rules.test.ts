import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layering rule of issue 11: the domain (everything under shared/ outside shared/http/) never
 * imports the HTTP layer; only shared/http/ maps domain errors to statuses. Every import form counts:
 * static, type-only, re-exports, side-effect imports, dynamic import(), import types and require().
 */
const ROOT = resolve(__dirname, '../..');
const SHARED = join(ROOT, 'shared');
const HTTP = join(SHARED, 'http');

function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir + sep);
}

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFilesUnder(path);
    return entry.isFile() && entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The module specifiers of a source text that point into shared/http/ (the file is at `file`). */
function httpImportsOf(file: string, source: string): string[] {
  const specifiers = ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
  return specifiers.filter((spec) => {
    if (spec.startsWith('.')) return isUnder(resolve(dirname(file), spec), HTTP);
    return /(^|\/)shared\/http(\/|$)/.test(spec);
  });
}

describe('import rules', () => {
  it('finds every form of import of shared/http/, and none elsewhere', () => {
    const file = join(SHARED, 'ledger', 'x.ts');
    const source = [
      "import { a } from '../storage/dynamo';",
      "import type { B } from '../http/route';",
      "export { c } from '../http/answer';",
      "export * from '../http/errors';",
      "import '../http/side-effect';",
      "const d = await import('../http/dynamic');",
      "type E = import('../http/type-ref').AnyRoute;",
      "const f = require('../http/required');",
      "import { g } from '../httpish/thing';",
      "import { h } from '../errors';",
      "// import { i } from '../http/in-a-comment';",
    ].join('\n');
    expect(httpImportsOf(file, source)).toEqual([
      '../http/route',
      '../http/answer',
      '../http/errors',
      '../http/side-effect',
      '../http/dynamic',
      '../http/type-ref',
      '../http/required',
    ]);
    expect(httpImportsOf(join(SHARED, 'auth', 'deep', 'y.ts'), "import { x } from '../../http';")).toEqual(['../../http']);
  });

  it('no module under shared/ outside shared/http/ imports shared/http/', () => {
    const files = tsFilesUnder(SHARED).filter((file) => !isUnder(file, HTTP));
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((file) => httpImportsOf(file, readFileSync(file, 'utf8')).map((spec) => `${relative(ROOT, file)} imports ${spec}`));
    expect(offenders).toEqual([]);
  });
});

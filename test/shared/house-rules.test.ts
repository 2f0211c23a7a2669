import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The house rules of issue 32 (../shared/notes/layout.md), as tests: every room has moved, and each
 * rule holds everywhere (the rooms moved one at a time behind lists of files still to move, now empty
 * and gone).
 */
const ROOT = resolve(__dirname, '../..');
const rel = (path: string) => relative(ROOT, path).split(sep).join('/');

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFilesUnder(path);
    return entry.isFile() && entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier a source imports, in every form (static, type-only, re-export, dynamic, require). */
function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

/** Whether a file's relative import points under `dir` (a path from the root). */
function importsUnder(file: string, source: string, dir: string): boolean {
  const target = join(ROOT, dir);
  return importsOf(source).some((spec) => {
    if (!spec.startsWith('.')) return false;
    const resolved = resolve(dirname(file), spec);
    return resolved === target || resolved.startsWith(target + sep);
  });
}

const EXPRESSION = /\b(ConditionExpression|UpdateExpression|KeyConditionExpression|FilterExpression|ProjectionExpression)\b/;
const SOURCES = ['functions', 'shared', 'infra', 'bench'].flatMap((dir) => tsFilesUnder(join(ROOT, dir)));
const read = (file: string) => readFileSync(file, 'utf8');

describe('the house rules (issue 32)', () => {
  it('DynamoDB expressions only under shared/adapters/dynamo/ (infra/local and bench aside)', () => {
    const offenders = SOURCES.map(rel)
      .filter((file) => !file.startsWith('shared/adapters/dynamo/') && !file.startsWith('infra/local/') && !file.startsWith('bench/'))
      .filter((file) => EXPRESSION.test(read(join(ROOT, file))));
    expect(offenders).toEqual([]);
  });

  it('@aws-sdk imported only under shared/adapters/ and infra/', () => {
    const offenders = SOURCES.map(rel)
      .filter((file) => !file.startsWith('shared/adapters/') && !file.startsWith('infra/') && !file.startsWith('bench/'))
      .filter((file) => importsOf(read(join(ROOT, file))).some((spec) => spec.startsWith('@aws-sdk/')));
    expect(offenders).toEqual([]);
  });

  it('app/ reads and writes through ports: it imports no adapter, no AWS SDK, no HTTP layer', () => {
    const app = tsFilesUnder(join(ROOT, 'shared', 'app'));
    expect(app.length).toBeGreaterThanOrEqual(5);
    const offenders = app.filter((file) => {
      const source = read(file);
      return (
        importsUnder(file, source, 'shared/adapters') ||
        importsUnder(file, source, 'shared/http') ||
        importsUnder(file, source, 'shared/wiring') ||
        importsOf(source).some((spec) => spec.startsWith('@aws-sdk/'))
      );
    });
    expect(offenders.map(rel)).toEqual([]);
  });

  it('ports/ are interfaces over the domain: they import only shared/domain/', () => {
    const offenders = tsFilesUnder(join(ROOT, 'shared', 'ports')).flatMap((file) =>
      importsOf(read(file))
        .filter((spec) => !spec.startsWith('.') || !resolve(dirname(file), spec).startsWith(join(ROOT, 'shared', 'domain')))
        .map((spec) => `${rel(file)} → ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('functions/ take their ports from shared/wiring/, never from an adapter', () => {
    const offenders = tsFilesUnder(join(ROOT, 'functions'))
      .filter((file) => importsUnder(file, read(file), 'shared/adapters'))
      .map(rel);
    expect(offenders).toEqual([]);
  });

  it('only the composition rooms (wiring/, http/, functions/, infra/) name shared/wiring/runtime.ts, which is built from adapters', () => {
    const composing = ['shared/wiring/', 'shared/http/', 'functions/', 'infra/', 'bench/'];
    const offenders = SOURCES.filter((file) => !composing.some((dir) => rel(file).startsWith(dir)) && rel(file) !== 'shared/wiring/runtime.ts')
      .filter((file) => importsUnder(file, read(file), 'shared/runtime'))
      .map(rel);
    expect(offenders).toEqual([]);
  });

  it('http/ reaches idempotency and the commit through ports: it imports no adapter (issue 45)', () => {
    const http = tsFilesUnder(join(ROOT, 'shared', 'http'));
    expect(http.length).toBeGreaterThanOrEqual(20);
    const offenders = http.filter((file) => importsUnder(file, read(file), 'shared/adapters')).map(rel);
    expect(offenders).toEqual([]);
  });

  it("shared/'s root holds only its rooms: no new loose entry (issue 45; the list only shrinks as rooms move)", () => {
    const entries = readdirSync(join(ROOT, 'shared')).sort();
    // The target house (../shared/notes/layout.md): domain, ports, app, adapters, http, pages, wiring.
    const rooms = ['adapters', 'app', 'domain', 'http', 'ports', 'wiring'];
    // Still to move into those rooms (a ratchet: remove an entry when it moves, never add one).
    const notYetMoved = [
      'accounts',
      'auth',
      'boleto',
      'cards',
      'checkout',
      'clock.ts',
      'config.ts',
      'crypto',
      'customers',
      'errors.ts',
      'events',
      'idempotency',
      'ids.ts',
      'invoices',
      'ledger',
      'logger.ts',
      'metrics',
      'panel',
      'pix',
      'queue',
      'queues.ts',
      'ratelimit',
      'redaction.ts',
      'reference',
      'route-policy.ts',
      'runtime.ts',
      'schemas',
      'signatures',
      'timeout.ts',
      'webhooks',
    ];
    const loose = entries.filter((entry) => !rooms.includes(entry) && !notYetMoved.includes(entry));
    expect(loose).toEqual([]);
    // An entry that moved comes off the list (the ratchet never keeps a name nothing answers to).
    expect(notYetMoved.filter((entry) => !entries.includes(entry))).toEqual([]);
  });

  it('finds a violation where one is planted (the checks can fail)', () => {
    const file = join(ROOT, 'shared', 'app', 'x.ts');
    expect(importsUnder(file, "import type { Db } from '../adapters/dynamo/dynamo';", 'shared/adapters')).toBe(true);
    expect(importsUnder(file, "const m = await import('../adapters/dynamo/keys');", 'shared/adapters')).toBe(true);
    expect(importsUnder(file, "import { x } from '../domain/ledger';", 'shared/adapters')).toBe(false);
    expect(EXPRESSION.test("{ UpdateExpression: 'SET a = :a' }")).toBe(true);
    expect(importsUnder(join(ROOT, 'shared', 'invoices', 'x.ts'), "import type { Runtime } from '../runtime';", 'shared/runtime')).toBe(true);
    expect(
      importsUnder(join(ROOT, 'shared', 'http', 'middleware', 'x.ts'), "import type { Lock } from '../../adapters/dynamo/idempotency';", 'shared/adapters'),
    ).toBe(true);
  });
});

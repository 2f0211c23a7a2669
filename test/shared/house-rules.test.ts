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

/** A file's relative imports that point outside the given rooms (paths from the root). */
function outsideRooms(file: string, source: string, rooms: readonly string[]): string[] {
  return importsOf(source).filter((spec) => {
    if (!spec.startsWith('.')) return false;
    const resolved = resolve(dirname(file), spec);
    return !rooms.some((room) => resolved === join(ROOT, room) || resolved.startsWith(join(ROOT, room) + sep));
  });
}

const EXPRESSION = /\b(ConditionExpression|UpdateExpression|KeyConditionExpression|FilterExpression|ProjectionExpression)\b/;
/**
 * An HTML escaper's definition: a function or constant named escape…Html, or a replacement text of
 * `<` or `&` on its own (`'&lt;'`, `"&amp;"`, `'&#60;'`, `'&#x3c;'`), as an escaping table or a replace
 * call has. Calling or importing the escaper, or an entity inside a longer text (an HTML example), is no
 * definition.
 */
const HTML_ESCAPER = /\bfunction\s+escape\w*Html\b|\b(?:const|let|var)\s+escape\w*Html\s*=|(['"`])&(?:lt|amp|#0*60|#0*38|#x0*3c|#x0*26);\1/i;
const definesHtmlEscaper = (source: string) => HTML_ESCAPER.test(source);

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
      .filter((file) => importsUnder(file, read(file), 'shared/wiring/runtime'))
      .map(rel);
    expect(offenders).toEqual([]);
  });

  it('http/ reaches idempotency and the commit through ports: it imports no adapter (issue 45)', () => {
    const http = tsFilesUnder(join(ROOT, 'shared', 'http'));
    expect(http.length).toBeGreaterThanOrEqual(20);
    const offenders = http.filter((file) => importsUnder(file, read(file), 'shared/adapters')).map(rel);
    expect(offenders).toEqual([]);
  });

  it('domain/ is values in, values out: it imports only domain/ (issue 45)', () => {
    const offenders = tsFilesUnder(join(ROOT, 'shared', 'domain')).flatMap((file) =>
      outsideRooms(file, read(file), ['shared/domain']).map((spec) => `${rel(file)} → ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('platform/ (logs, metrics, configuration, ids, crypto, time limits) builds on the domain only (issue 45)', () => {
    const offenders = tsFilesUnder(join(ROOT, 'shared', 'platform')).flatMap((file) =>
      outsideRooms(file, read(file), ['shared/domain', 'shared/platform']).map((spec) => `${rel(file)} → ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('pages/ are values to HTML: they import only domain/, platform/ and pages/ (issue 45)', () => {
    const offenders = tsFilesUnder(join(ROOT, 'shared', 'pages')).flatMap((file) =>
      outsideRooms(file, read(file), ['shared/domain', 'shared/platform', 'shared/pages']).map((spec) => `${rel(file)} → ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('one HTML escaper, in shared/pages/: no file outside it defines one (issue 45)', () => {
    const definers = SOURCES.map(rel).filter((file) => definesHtmlEscaper(read(join(ROOT, file))));
    expect(definers).toEqual(['shared/pages/kit/html.ts']);
    expect(definers.filter((file) => !file.startsWith('shared/pages/'))).toEqual([]);
  });

  it("shared/'s root holds only its rooms (issue 45: every loose entry has moved; a new one fails here)", () => {
    const entries = readdirSync(join(ROOT, 'shared')).sort();
    // The target house (../shared/notes/layout.md): domain, ports, app, adapters, http, pages, wiring, and
    // platform (logs, metrics, configuration, ids: what every room but the domain uses).
    expect(entries).toEqual(['adapters', 'app', 'domain', 'http', 'pages', 'platform', 'ports', 'wiring']);
  });

  it('finds a violation where one is planted (the checks can fail)', () => {
    const file = join(ROOT, 'shared', 'app', 'x.ts');
    expect(importsUnder(file, "import type { Db } from '../adapters/dynamo/dynamo';", 'shared/adapters')).toBe(true);
    expect(importsUnder(file, "const m = await import('../adapters/dynamo/keys');", 'shared/adapters')).toBe(true);
    expect(importsUnder(file, "import { x } from '../domain/ledger';", 'shared/adapters')).toBe(false);
    expect(EXPRESSION.test("{ UpdateExpression: 'SET a = :a' }")).toBe(true);
    expect(importsUnder(join(ROOT, 'shared', 'app', 'x.ts'), "import type { Runtime } from '../wiring/runtime';", 'shared/wiring/runtime')).toBe(true);
    expect(outsideRooms(join(ROOT, 'shared', 'domain', 'x.ts'), "import { logger } from '../platform/logger';", ['shared/domain'])).toEqual([
      '../platform/logger',
    ]);
    expect(outsideRooms(join(ROOT, 'shared', 'domain', 'x.ts'), "import { a } from './money'; import * as z from 'zod';", ['shared/domain'])).toEqual([]);
    // The boleto page's own escaper before issue 45, and other ways to write one.
    expect(definesHtmlEscaper(`const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;' };\nfunction escapeHtml(text: string) {}`)).toBe(true);
    expect(definesHtmlEscaper('const escapeHtml = (text: string) => text;')).toBe(true);
    expect(definesHtmlEscaper('export function escapeAttrHtml(text: string) {}')).toBe(true);
    expect(definesHtmlEscaper("return text.replace(/</g, '&lt;');")).toBe(true);
    expect(definesHtmlEscaper('out = out.split("&").join("&amp;");')).toBe(true);
    expect(definesHtmlEscaper("text.replace(/&/g, '&#38;')")).toBe(true);
    // Using the one escaper, or an entity inside an HTML example, defines none.
    expect(definesHtmlEscaper("import { escapeHtml } from '../kit/html';\nconst p = `<p>${escapeHtml(name)}</p>`;")).toBe(false);
    expect(definesHtmlEscaper(`'<a href="https://shop.example/done?tx_ref=1&amp;status=PAID">Continuar</a>'`)).toBe(false);
    expect(
      importsUnder(join(ROOT, 'shared', 'http', 'middleware', 'x.ts'), "import type { Lock } from '../../adapters/dynamo/idempotency';", 'shared/adapters'),
    ).toBe(true);
  });
});

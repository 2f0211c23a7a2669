import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildOpenApiDocument } from '../../../shared/http/openapi';
import { routeList } from '../../../shared/http/routes';

const root = resolve(__dirname, '../../..');
const spectralCli = join(root, 'node_modules/@stoplight/spectral-cli/dist/index.js');
const ruleset = join(root, '.spectral.yaml');

type Finding = { code: string; message: string; path: string[]; severity: number };

/** Runs `spectral lint` (the CLI, as a user would) with the project's ruleset over a document; its findings. */
async function lint(document: unknown, dir: string, name: string): Promise<Finding[]> {
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(document));
  // Exit code 1 means "errors found": the findings are still on stdout.
  const run = promisify(execFile)(process.execPath, [spectralCli, 'lint', file, '--ruleset', ruleset, '--format', 'json', '--quiet'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((err: { stdout?: string; stderr?: string; code?: number }) => {
    if (err.code === 1 && err.stdout) return { stdout: err.stdout, stderr: err.stderr ?? '' };
    throw new Error(`spectral failed: ${err.stderr ?? String(err)}`);
  });
  const { stdout } = await run;
  return stdout.trim() === '' || stdout.includes('No results with a severity') ? [] : (JSON.parse(stdout) as Finding[]);
}

const describeFinding = (f: Finding) => `${f.code} ${f.path.join('.')}: ${f.message}`;

describe('Spectral (spectral:oas + OWASP ruleset) over the generated OpenAPI document', () => {
  let dir: string;
  let findings: Finding[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'openapi-spectral-'));
    findings = await lint(buildOpenApiDocument(routeList), dir, 'openapi.json');
  }, 60_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reports 0 errors', () => {
    const errors = findings.filter((f) => f.severity === 0);
    expect(errors.map(describeFinding)).toEqual([]);
  });

  it('still catches what the ruleset guards: a request string without a limit, a write route without security', async () => {
    const document = buildOpenApiDocument(routeList) as {
      paths: Record<string, Record<string, { security: unknown[]; parameters: { schema: Record<string, unknown> }[] }>>;
    };
    const getCheckout = document.paths['/api/checkout/{tx_ref}']?.get;
    const parameter = getCheckout?.parameters[0];
    expect(parameter?.schema.maxLength).toBeDefined();
    delete parameter?.schema.maxLength;
    const putWebhook = document.paths['/api/webhook']?.put;
    if (putWebhook) putWebhook.security = [];
    const broken = await lint(document, dir, 'broken.json');
    const codes = broken.filter((f) => f.severity === 0).map((f) => `${f.code} ${f.path.slice(0, 3).join('.')}`);
    expect(codes).toContain('request-string-limit paths./api/checkout/{tx_ref}.get');
    expect(codes).toContain('owasp:api2:2023-write-restricted paths./api/webhook.put');
  }, 60_000);

  it('gives a written reason for every rule it turns off', async () => {
    const text = await readFile(ruleset, 'utf8');
    const parsed = parse(text) as { rules: Record<string, unknown>; overrides?: { rules: Record<string, unknown> }[] };
    const offRules = [
      ...Object.entries(parsed.rules).filter(([, v]) => v === 'off'),
      ...(parsed.overrides ?? []).flatMap((o) => Object.entries(o.rules).filter(([, v]) => v === 'off')),
    ].map(([name]) => name);
    expect(offRules.length).toBeGreaterThan(0);
    const lines = text.split('\n');
    for (const name of new Set(offRules)) {
      const at = lines.findIndex((line) => line.trim().startsWith(`${name}: off`));
      const before = lines.slice(Math.max(0, at - 12), at).join('\n');
      // The reason: a comment right above the rule (or above its group), saying "Off" or "Replaced".
      expect(at, name).toBeGreaterThan(-1);
      expect(before, name).toMatch(/#\s*(Off|Replaced)\b[^\n]{20,}/);
    }
  });
});

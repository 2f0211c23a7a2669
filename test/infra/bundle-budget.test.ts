import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLD_START_TARGETS, kb } from '../../bench/cold-start/analysis';
import { type Bundle, bundleAll } from '../../bench/cold-start/bundle';
import { type BundleTarget, deployedTargets } from '../../bench/cold-start/functions';
import { importOnce, nodeBinary } from '../../bench/cold-start/import-time';
import { ApiFunction } from '../../infra/cdk/api-function';
import { BESIDE_BUNDLE_MODULES, besideBundleCommands, ESBUILD } from '../../infra/cdk/bundling';
import { buildApp } from '../../infra/stack';
import { passwordProblems } from '../../shared/domain/panel/password-policy';
import { reachable } from '../support/reachable';
import { NO_BUNDLING } from './synthesized';

/**
 * Issue 44's bundle budget: every function the stack deploys, bundled as the CDK bundles it
 * (bench/cold-start/bundle.ts, checked against infra/cdk/api-function.ts by test/bench/cold-start.test.ts),
 * is at most 512 KB: the index.mjs the function imports at its cold start, its source map apart. No
 * exceptions. zxcvbn's dictionaries are a beside module (infra/cdk/bundling.ts): a file next to the
 * bundle of the functions that set a password, imported when a password is checked. The import-time
 * target (≤ 1.3 × the DynamoDB-only floor) is a timing, measured by `npm run bench` (its exit code), not here.
 */
const ROOT = resolve(__dirname, '../..');
const POLICY = 'shared/domain/panel/password-policy.ts';
const STRENGTH_FILE = 'password-strength.mjs';

/** One bundle per handler module (the functions sharing a handler share its bundle byte for byte). */
function handlerTarget(entry: string): BundleTarget {
  return { id: entry.replace(/[/.]/g, '_'), label: entry, entry, kind: 'route', stackAliases: true };
}

/** What the stack's afterBundling hook runs for a bundle's folder (bash, from the project root). */
function runHook(dir: string): void {
  for (const command of besideBundleCommands(dir, ESBUILD)) execFileSync('bash', ['-c', command], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

let out: string;
let stackFunctions: { id: string; handler: string }[];
/** Every function: the stack's and the bench's (one per route), by id. */
let allFunctions: { id: string; handler: string }[];
let bundles: Map<string, Bundle>;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'bundle-budget-'));
  const { stack } = buildApp({ context: NO_BUNDLING, nag: false });
  stackFunctions = [...stack.functions].map(([id, fn]) => ({ id, handler: fn.handler }));
  // The stack's functions with its default settings, and the bench's list, which has those that only some settings deploy (the Pix sweep with a PSP).
  const handlers = [...new Set([...stackFunctions.map((fn) => fn.handler), ...deployedTargets().map((target) => target.entry)])];
  const built = await bundleAll(ROOT, out, [...handlers.map(handlerTarget), handlerTarget(POLICY)]);
  bundles = new Map(built.map((bundle) => [bundle.target.entry, bundle]));
  allFunctions = [...stackFunctions, ...deployedTargets().map((target) => ({ id: target.id, handler: target.entry }))];
  for (const bundle of built) runHook(join(out, bundle.target.id));
}, 300_000);

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

const bundleOf = (entry: string): Bundle => {
  const bundle = bundles.get(entry);
  if (!bundle) throw new Error(`no bundle of ${entry}`);
  return bundle;
};
const besideFile = (entry: string) => join(out, handlerTarget(entry).id, STRENGTH_FILE);

describe('every function bundle within 512 KB (issue 44)', () => {
  it('bundles every function the stack deploys, the bench bundles each of them too', () => {
    expect(stackFunctions.length).toBeGreaterThan(40);
    // A shared function is named after its group; the bench names its routes, each with the same handler.
    const benched = new Set(deployedTargets().map((target) => target.entry));
    for (const fn of stackFunctions) expect(benched.has(fn.handler), `${fn.id}: ${fn.handler}`).toBe(true);
  });

  it('holds every bundle to 512 KB (1 KB = 1,024 bytes), the index.mjs without its map: no exceptions', () => {
    expect(COLD_START_TARGETS.maxKb).toBe(512);
    expect(allFunctions.length).toBeGreaterThan(stackFunctions.length);
    const over = allFunctions
      .map((fn) => ({ id: fn.id, kb: kb(bundleOf(fn.handler).bytes) }))
      .filter((fn) => fn.kb > COLD_START_TARGETS.maxKb)
      .map((fn) => `${fn.id} ${fn.kb.toFixed(1)} KB`);
    expect(over).toEqual([]);
  });

  it('bundles no zxcvbn and no dictionary into any function', () => {
    for (const { id, handler } of allFunctions) {
      const bundle = bundleOf(handler);
      const inputs = Object.keys(bundle.metafile.outputs[bundle.outputKey]?.inputs ?? {});
      expect(inputs.length, id).toBeGreaterThan(10);
      expect(
        inputs.filter((input) => input.includes('@zxcvbn-ts/') || input.endsWith('panel/password-strength.ts')),
        id,
      ).toEqual([]);
    }
  });

  it('puts password-strength.mjs beside the bundle of exactly the functions that reach the password policy (they set a password)', () => {
    expect(BESIDE_BUNDLE_MODULES.map((module) => module.file)).toEqual([STRENGTH_FILE]);
    const setters = allFunctions.filter((fn) => reachable(fn.handler).has(POLICY)).map((fn) => fn.handler);
    expect(new Set(setters)).toEqual(new Set(['functions/panel/access.ts', 'functions/panel/recovery.ts']));
    for (const { id, handler } of allFunctions) expect(existsSync(besideFile(handler)), id).toBe(setters.includes(handler));
  });

  it('imports a function that sets a password without its beside file: the cold start reads no dictionary', async () => {
    const bundle = bundleOf('functions/panel/access.ts');
    const beside = besideFile('functions/panel/access.ts');
    renameSync(beside, `${beside}.away`);
    try {
      await expect(importOnce(nodeBinary(ROOT), bundle.file, 'PanelSignIn', false)).resolves.toBeGreaterThan(0);
    } finally {
      renameSync(`${beside}.away`, beside);
    }
  });
});

describe("the CDK's own bundling of a function that sets a password (issue 44)", () => {
  it('ships index.mjs within 512 KB and password-strength.mjs beside it; a function that sets none gets no such file', { timeout: 180_000 }, () => {
    const outdir = mkdtempSync(join(tmpdir(), 'cdk-out-'));
    try {
      const app = new App({ outdir });
      const scratch = new Stack(app, 'BesideCheck');
      const fns = ['functions/panel/recovery.ts', 'functions/meta/not-found.ts'].map(
        (handler, i) => new ApiFunction(scratch, `Fn${i}`, { handler, environment: {}, logRetention: RetentionDays.ONE_YEAR, description: 'beside check' }),
      );
      const assembly = app.synth();
      const template = assembly.getStackByName(scratch.stackName).template as { Resources: Record<string, { Properties: { Code: { S3Key: string } } }> };
      const [setter, other] = fns.map((fn) => {
        const code = template.Resources[scratch.getLogicalId(fn.fn.node.defaultChild as CfnFunction)]?.Properties.Code;
        const hash = /^([0-9a-f]{64})\.zip$/.exec(code?.S3Key ?? '')?.[1];
        if (!hash) throw new Error('no asset');
        return join(outdir, `asset.${hash}`);
      }) as [string, string];
      expect(readdirSync(setter).sort()).toEqual(['index.mjs', 'index.mjs.map', STRENGTH_FILE]);
      expect(kb(statSync(join(setter, 'index.mjs')).size)).toBeLessThanOrEqual(COLD_START_TARGETS.maxKb);
      expect(kb(statSync(join(setter, STRENGTH_FILE)).size)).toBeGreaterThan(1024);
      expect(readdirSync(other).sort()).toEqual(['index.mjs', 'index.mjs.map']);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});

/** Runs the bundled policy in a fresh Node 22 process: its answers to each password, for the context given. */
function bundledProblems(file: string, passwords: readonly string[], context: { email: string; accountName: string | undefined }): Promise<string[][]> {
  const script = [
    'const { passwordProblems } = await import(process.argv[1]);',
    'const [passwords, context] = JSON.parse(process.argv[2]);',
    'const answers = [];',
    'for (const password of passwords) answers.push(await passwordProblems(password, context));',
    'process.stdout.write(JSON.stringify(answers));',
  ].join('\n');
  return new Promise((resolvePromise, reject) => {
    execFile(
      nodeBinary(ROOT),
      ['--input-type=module', '-e', script, pathToFileURL(file).href, JSON.stringify([passwords, context])],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeout: 60_000 },
      (error, stdout, stderr) => (error ? reject(new Error(stderr || error.message)) : resolvePromise(JSON.parse(stdout) as string[][])),
    );
  });
}

describe('the password policy in a Lambda bundle: zxcvbn from the file beside it (issue 44)', () => {
  const context = { email: 'joaopedro.silva@empresa.com.br', accountName: 'Padaria Pão Quente' };
  const passwords = [
    'Tq9#mZ2vL!pX',
    'correct horse battery staple',
    'padariapaoquente2024',
    'joaopedro.silva2024!',
    'senhasegura123',
    'Vq7#rXe2!mTz9@Lk'.repeat(8),
    'password1234',
    'saudade pitanga caravela 42',
  ];

  it('answers as the policy in this process (the same dictionaries, the same personal words, score 3 and over), zxcvbn read from the beside file', async () => {
    const file = bundleOf(POLICY).file;
    expect(existsSync(besideFile(POLICY))).toBe(true);
    const expected = await Promise.all(passwords.map((password) => passwordProblems(password, context)));
    // The test can fail: some are refused as weak (the dictionaries and the account's name count), some accepted.
    expect(expected.filter((problems) => problems.length === 0).length).toBeGreaterThan(0);
    expect(expected.filter((problems) => problems.length > 0).length).toBeGreaterThan(0);
    expect(await bundledProblems(file, passwords, context)).toEqual(expected);
  }, 120_000);

  it('loads the bundle without the beside file and fails only when a password is checked', async () => {
    const file = bundleOf(POLICY).file;
    const beside = besideFile(POLICY);
    renameSync(beside, `${beside}.away`);
    try {
      await expect(bundledProblems(file, [], context)).resolves.toEqual([]);
      await expect(bundledProblems(file, ['saudade pitanga caravela 42'], context)).rejects.toThrow(/password-strength\.mjs/);
      // A password refused before the estimate (too short) needs no zxcvbn at all.
      await expect(bundledProblems(file, ['curta'], context)).resolves.toEqual([['A senha precisa ter pelo menos 12 caracteres.']]);
    } finally {
      renameSync(`${beside}.away`, beside);
    }
  }, 120_000);
});

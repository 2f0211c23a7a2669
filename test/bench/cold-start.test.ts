import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { COLD_START_TARGETS, interleavedOrder, packageOf, ratioTo, summarizeTimes, topInputs, topPackages, verdict } from '../../bench/cold-start/analysis';
import { cdkEsbuildOptions, ESM_REQUIRE_BANNER } from '../../bench/cold-start/bundle';
import { deployedTargets, FLOOR_AS_DEPLOYED_ID, FLOOR_ID, isTargeted, referenceTargets } from '../../bench/cold-start/functions';
import { childEnvironment, parseChildOutput } from '../../bench/cold-start/import-time';
import { coldStartMarkdown } from '../../bench/cold-start/section';
import type { ColdStartReport, ColdStartRow } from '../../bench/cold-start/types';
import { COLD_START_BEGIN, COLD_START_END, mergeJson, mergeMarkdown, splitMarkdown } from '../../bench/report-files';
import { median } from '../../bench/stats';
import { fallbackHandler, routeList } from '../../shared/http/routes';
import { queueList } from '../../shared/platform/queues';
import { aliasArgs, LAMBDA_BUNDLE_ALIASES } from '../../infra/cdk/bundling';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('median and time summaries', () => {
  it('takes the middle value of an odd count whatever the order', () => {
    expect(median([9, 1, 5, 3, 7])).toBe(5);
  });

  it('takes the lower middle value of an even count (nearest rank)', () => {
    expect(median([4, 1, 3, 2])).toBe(2);
  });

  it('summarizes the runs of one bundle', () => {
    expect(summarizeTimes([120, 80, 100, 300, 90])).toEqual({ median: 100, min: 80, max: 300, runs: 5 });
  });

  it('has no median without runs', () => {
    const summary = summarizeTimes([]);
    expect(summary.runs).toBe(0);
    expect(summary.median).toBeNaN();
  });
});

describe('ratio to the floor and the verdict', () => {
  it('divides by the floor', () => {
    expect(ratioTo(150, 120)).toBe(1.25);
  });

  it.each([
    [100, 0],
    [100, Number.NaN],
    [Number.NaN, 100],
  ])('has no ratio for %d over %d', (value, floor) => {
    expect(ratioTo(value, floor)).toBeNaN();
  });

  it('passes at exactly 512 KB (1 KB = 1,024 bytes) and 1.3 × the floor', () => {
    expect(COLD_START_TARGETS).toEqual({ maxKb: 512, maxRatioToFloor: 1.3 });
    expect(verdict(512 * 1024, 1.3)).toEqual({ sizePass: true, importPass: true, pass: true });
  });

  it('fails one byte over 512 KB even when the import is fast', () => {
    expect(verdict(512 * 1024 + 1, 0.5)).toEqual({ sizePass: false, importPass: true, pass: false });
  });

  it('fails a small bundle that imports slower than 1.3 × the floor', () => {
    expect(verdict(100 * 1024, 1.3001)).toEqual({ sizePass: true, importPass: false, pass: false });
  });

  it('fails when the import could not be measured', () => {
    expect(verdict(1024, Number.NaN).pass).toBe(false);
  });

  it('takes other limits when given', () => {
    expect(verdict(600 * 1024, 1.4, { maxKb: 700, maxRatioToFloor: 1.5 }).pass).toBe(true);
  });
});

function metafile(inputs: Record<string, number>): Metafile {
  const bytes = Object.values(inputs).reduce((sum, n) => sum + n, 0) + 100;
  return {
    inputs: {},
    outputs: {
      'out/A/index.mjs': {
        bytes,
        inputs: Object.fromEntries(Object.entries(inputs).map(([path, n]) => [path, { bytesInOutput: n }])),
        imports: [],
        exports: ['handler'],
      },
      'out/A/index.mjs.map': { bytes: 10, inputs: {}, imports: [], exports: [] },
    },
  };
}

describe('what a bundle holds (metafile)', () => {
  const meta = metafile({
    'node_modules/zod/v4/core/schemas.js': 400,
    'node_modules/zod/v4/classic/schemas.js': 300,
    'node_modules/@aws-sdk/client-dynamodb/dist-es/index.js': 500,
    'node_modules/@smithy/core/node_modules/uuid/dist/index.js': 50,
    'shared/domain/schemas/invoice.ts': 200,
    'shared/domain/schemas/customer.ts': 100,
    'functions/account/balance.ts': 150,
  });

  it('lists the inputs by bytes in the output, largest first, with their share', () => {
    const top = topInputs(meta, 'out/A/index.mjs', 3);
    expect(top.map((t) => t.path)).toEqual([
      'node_modules/@aws-sdk/client-dynamodb/dist-es/index.js',
      'node_modules/zod/v4/core/schemas.js',
      'node_modules/zod/v4/classic/schemas.js',
    ]);
    expect(top[0]?.bytes).toBe(500);
    expect(top[0]?.share).toBeCloseTo(500 / 1800, 10);
  });

  it('sums the inputs by package', () => {
    const top = topPackages(meta, 'out/A/index.mjs', 10);
    expect(top.slice(0, 3)).toEqual([
      { path: 'zod', bytes: 700, share: 700 / 1800 },
      { path: '@aws-sdk/client-dynamodb', bytes: 500, share: 500 / 1800 },
      { path: 'shared/domain/schemas', bytes: 300, share: 300 / 1800 },
    ]);
    expect(top.map((t) => t.path)).toContain('uuid');
  });

  it.each([
    ['node_modules/@aws-sdk/lib-dynamodb/dist-es/index.js', '@aws-sdk/lib-dynamodb'],
    ['node_modules/bwip-js/dist/bwipp.mjs', 'bwip-js'],
    ['node_modules/@smithy/core/node_modules/uuid/dist/index.js', 'uuid'],
    ['shared/domain/reference/countries.generated.ts', 'shared/domain/reference'],
    ['bench/floor.ts', 'bench/floor.ts'],
  ])('puts %s in %s', (path, pkg) => {
    expect(packageOf(path)).toBe(pkg);
  });

  it('refuses an output the metafile does not have', () => {
    expect(() => topInputs(meta, 'out/B/index.mjs', 3)).toThrow(/no output/);
  });
});

describe('interleaved order', () => {
  const jobs = 6;
  const rounds = 4;
  const order = interleavedOrder(jobs, rounds);
  const roundsOf = (o: number[]) => Array.from({ length: rounds }, (_, r) => o.slice(r * jobs, (r + 1) * jobs));

  it('runs every job once in every round', () => {
    expect(order).toHaveLength(jobs * rounds);
    for (const round of roundsOf(order)) expect([...round].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('does not run the rounds in one and the same order', () => {
    expect(new Set(roundsOf(order).map((round) => round.join(','))).size).toBeGreaterThan(1);
  });

  it('is reproducible for a seed', () => {
    expect(interleavedOrder(jobs, rounds, 7)).toEqual(interleavedOrder(jobs, rounds, 7));
    expect(interleavedOrder(jobs, rounds, 7)).not.toEqual(interleavedOrder(jobs, rounds, 8));
  });
});

describe('the bundled functions', () => {
  const targets = deployedTargets();

  it('bundles one function per route, the fallback and every queue, stream and scheduled worker', () => {
    for (const route of routeList) expect(targets).toContainEqual(expect.objectContaining({ id: route.id, entry: route.handler, kind: 'route' }));
    expect(targets).toContainEqual(expect.objectContaining({ id: 'Fallback', entry: fallbackHandler, kind: 'fallback' }));
    for (const def of queueList) expect(targets).toContainEqual(expect.objectContaining({ id: `${def.id}Worker`, entry: def.handler, kind: 'worker' }));
    expect(targets.filter((t) => t.kind === 'worker').map((t) => t.entry)).toEqual(
      expect.arrayContaining([
        'functions/workers/stream-forwarder.ts',
        'functions/workers/sweep.ts',
        'functions/workers/checkout-upkeep.ts',
        'functions/workers/reconcile.ts',
      ]),
    );
  });

  it('names every bundle once, and every entry exists', () => {
    const all = [...referenceTargets, ...targets];
    expect(new Set(all.map((t) => t.id)).size).toBe(all.length);
    for (const t of all) expect(existsSync(join(ROOT, t.entry)), t.entry).toBe(true);
  });

  it("bundles every deployed function with the stack's substitutions, the issue's floor without them", () => {
    expect(targets.every((t) => t.stackAliases)).toBe(true);
    const floor = referenceTargets.find((t) => t.id === FLOOR_ID);
    const asDeployed = referenceTargets.find((t) => t.id === FLOOR_AS_DEPLOYED_ID);
    expect(floor?.stackAliases).toBe(false);
    expect(asDeployed).toMatchObject({ entry: floor?.entry, kind: 'reference', stackAliases: true });
  });

  it('holds every deployed function to the targets (issue 44: per function, no exceptions), not the references', () => {
    expect([isTargeted('route'), isTargeted('fallback'), isTargeted('authorizer'), isTargeted('worker'), isTargeted('reference')]).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
    expect(targets).toContainEqual(expect.objectContaining({ id: 'EdgeOriginAuthorizer', entry: 'functions/edge/origin-authorizer.ts', kind: 'authorizer' }));
    expect(targets.every((t) => isTargeted(t.kind))).toBe(true);
  });
});

describe("the CDK's esbuild settings", () => {
  const options = cdkEsbuildOptions(ROOT, '/tmp/out', referenceTargets);
  const floorOnly = cdkEsbuildOptions(ROOT, '/tmp/out', referenceTargets, false);
  const apiFunction = readFileSync(join(ROOT, 'infra', 'cdk', 'api-function.ts'), 'utf8');

  it('bundles as ESM for Node 22, minified, with a source map, main fields module,main and nothing external but the beside modules', () => {
    expect(options).toMatchObject({
      bundle: true,
      splitting: false,
      format: 'esm',
      target: 'node22',
      platform: 'node',
      minify: true,
      sourcemap: true,
      mainFields: ['module', 'main'],
      external: ['./password-strength'],
      define: { PASSWORD_STRENGTH_BESIDE_BUNDLE: '"./password-strength.mjs"' },
      metafile: true,
      banner: { js: ESM_REQUIRE_BANNER },
      outExtension: { '.js': '.mjs' },
    });
    expect(options.entryPoints).toEqual(referenceTargets.map((t) => ({ in: join(ROOT, t.entry), out: `${t.id}/index` })));
    expect(ESM_REQUIRE_BANNER).toBe("import { createRequire } from 'module'; const require = createRequire(import.meta.url);");
    // The floor is the DynamoDB client as a function bundles it with the defaults: nothing external, no define.
    expect(floorOnly.external).toEqual([]);
    expect(floorOnly.define).toBeUndefined();
  });

  it('substitutes what the stack substitutes (infra/cdk/bundling.ts), unless told not to', () => {
    expect(options.alias).toEqual(LAMBDA_BUNDLE_ALIASES);
    expect(cdkEsbuildOptions(ROOT, '/tmp/out', referenceTargets, false).alias).toBeUndefined();
    expect(aliasArgs()).toEqual(Object.entries(LAMBDA_BUNDLE_ALIASES).map(([from, to]) => `${from}=${to}`));
    for (const to of Object.values(LAMBDA_BUNDLE_ALIASES)) expect(existsSync(join(ROOT, to)), to).toBe(true);
  });

  it.each([
    'format: OutputFormat.ESM',
    "target: 'node22'",
    'minify: true',
    'sourceMap: true',
    "mainFields: ['module', 'main']",
    'externalModules: [...LAMBDA_BUNDLE_EXTERNALS]',
    'define: LAMBDA_BUNDLE_DEFINES',
    'commandHooks: BESIDE_BUNDLE_HOOKS',
    'bundleAwsSDK: true',
    'banner: ESM_REQUIRE_BANNER',
    "esbuildArgs: { '--alias': aliasArgs() }",
  ])('still matches infra/cdk/api-function.ts: %s', (setting) => {
    expect(apiFunction).toContain(setting);
  });

  it('sets no other bundling option in infra/cdk/api-function.ts that the bench would miss', () => {
    const bundling = /bundling: \{([^}]*)\}/.exec(apiFunction)?.[1] ?? '';
    const keys = [...bundling.matchAll(/(\w+):/g)].map((m) => m[1]).sort();
    expect(keys).toEqual([
      'banner',
      'bundleAwsSDK',
      'commandHooks',
      'define',
      'esbuildArgs',
      'externalModules',
      'forceDockerBundling',
      'format',
      'mainFields',
      'minify',
      'sourceMap',
      'target',
    ]);
  });
});

describe('the child process', () => {
  it('gets no NODE_OPTIONS unless source maps are measured', () => {
    expect(childEnvironment('GetBalance', false).NODE_OPTIONS).toBeUndefined();
    expect(childEnvironment('GetBalance', true).NODE_OPTIONS).toBe('--enable-source-maps');
  });

  it('reads the last result line of the child, whatever the module printed before', () => {
    const stdout = 'a log line\nCOLD_START_RESULT {"ms":1,"handler":"function"}\nCOLD_START_RESULT {"ms":123.5,"handler":"function"}\n';
    expect(parseChildOutput(stdout)).toEqual({ ms: 123.5, handler: 'function' });
  });

  it.each(['', 'no result\n', 'COLD_START_RESULT {"ms":"fast","handler":"function"}\n'])('refuses %j', (stdout) => {
    expect(() => parseChildOutput(stdout)).toThrow();
  });
});

function reportRow(id: string, kind: ColdStartRow['kind'], kb: number, ratio: number): ColdStartRow {
  return {
    id,
    label: id,
    kind,
    entry: `${id}.ts`,
    targeted: isTargeted(kind),
    bytes: kb * 1024,
    kb,
    mapKb: kb * 4,
    importMs: { median: ratio * 100, min: ratio * 90, max: ratio * 110, runs: 7 },
    ratioToFloor: ratio,
    verdict: verdict(kb * 1024, ratio),
  };
}

describe('the cold-start section', () => {
  const report: ColdStartReport = {
    generatedAt: '2026-11-23T00:00:00.000Z',
    runs: 7,
    node: 'v22.23.3',
    esbuild: '0.28.2',
    cpus: 2,
    loadAverage: { before: 0.5, after: 0.6 },
    durationSeconds: 60,
    targets: { maxKb: 512, maxRatioToFloor: 1.3, bytesPerKb: 1024, floorMedianMs: 100, importLimitMs: 130 },
    floor: reportRow('floor', 'reference', 333, 1),
    floorAsDeployed: reportRow('floor-as-deployed', 'reference', 201.4, 0.7),
    empty: reportRow('empty', 'reference', 0.2, 0.03),
    functions: [reportRow('GetBalance', 'route', 400, 1.1), reportRow('BoletoPage', 'route', 1900, 3.2), reportRow('Sweep', 'worker', 880, 1.8)],
    beside: [
      { file: 'password-strength.mjs', entry: 'shared/domain/panel/password-strength.ts', kb: 2230.4, functions: ['PanelSignIn', 'PanelResetPassword'] },
    ],
    failing: ['BoletoPage', 'Sweep'],
    sourceMaps: [],
    biggest: [
      {
        id: 'BoletoPage',
        label: 'GET /boleto',
        kb: 1900,
        inputs: [{ path: 'node_modules/bwip-js/dist/bwipp.mjs', bytes: 871_000, share: 0.45 }],
        packages: [],
      },
    ],
    pass: false,
  };
  const text = coldStartMarkdown(report);

  it('names every failing function, a worker too', () => {
    expect(text).toContain('**2 of 3 functions FAIL**: BoletoPage (1900 KB, 3.20×), Sweep (880 KB, 1.80×)');
  });

  it('marks a route PASS, a route FAIL and a worker FAIL alike', () => {
    expect(text).toMatch(/\| GetBalance \| route \| 400\.0 \|.*\| \*\*PASS\*\* \|/);
    expect(text).toMatch(/\| BoletoPage \| route \| 1900\.0 \|.*\| over \| over \| \*\*FAIL\*\* \|/);
    expect(text).toMatch(/\| Sweep \| worker \| 880\.0 \|.*\| over \| over \| \*\*FAIL\*\* \|/);
  });

  it('lists the modules beside the bundles, outside their budget, with the functions that load them', () => {
    expect(text).toContain('| password-strength.mjs | `shared/domain/panel/password-strength.ts` | 2230.4 | 2: PanelSignIn, PanelResetPassword |');
    expect(text).toContain('never at a cold start');
  });

  it('shows the floor as the stack bundles it, for information', () => {
    expect(text).toMatch(/\| floor-as-deployed \| reference \| 201\.4 \|.*\| — \|/);
    expect(text).toContain('is 201.4 KB and imports in 70.0 ms (0.70 × the floor), shown for information; the targets use the floor.');
  });

  it('lists the biggest inputs', () => {
    expect(text).toContain('| `node_modules/bwip-js/dist/bwipp.mjs` | 850.6 | 45.0 % |');
  });
});

describe('the report files', () => {
  const roundTrips = '# DynamoDB round trips\n\n| a | b |\n';
  const section = '## Cold start\n\nfigures\n';

  it('adds the cold-start section after the round trips, between markers', () => {
    const text = mergeMarkdown(roundTrips, { coldStart: section });
    expect(text).toBe(`# DynamoDB round trips\n\n| a | b |\n\n${COLD_START_BEGIN}\n## Cold start\n\nfigures\n\n${COLD_START_END}\n`);
  });

  it('replaces only the section that ran', () => {
    const both = mergeMarkdown(roundTrips, { coldStart: section });
    const newColdStart = mergeMarkdown(both, { coldStart: '## Cold start\n\nnew figures\n' });
    expect(splitMarkdown(newColdStart).roundTrips).toBe(roundTrips.trimEnd());
    expect(newColdStart).toContain('new figures');
    expect(newColdStart).not.toContain('\nfigures');
    const newRoundTrips = mergeMarkdown(both, { roundTrips: '# DynamoDB round trips\n\nnew table\n' });
    expect(newRoundTrips).toContain('new table');
    expect(newRoundTrips).not.toContain('| a | b |');
    expect(splitMarkdown(newRoundTrips).coldStart).toBe(`${COLD_START_BEGIN}\n## Cold start\n\nfigures\n\n${COLD_START_END}`);
  });

  it('keeps the previous cold start in the JSON when only the round trips ran, and the reverse', () => {
    const previous = { generatedAt: 'old', scenarios: [1], coldStart: { runs: 7 } };
    expect(mergeJson(previous, { roundTrips: { generatedAt: 'new', scenarios: [2] } })).toEqual({ generatedAt: 'new', scenarios: [2], coldStart: { runs: 7 } });
    expect(mergeJson(previous, { coldStart: { runs: 3 } })).toEqual({ generatedAt: 'old', scenarios: [1], coldStart: { runs: 3 } });
    expect(mergeJson(undefined, { roundTrips: { generatedAt: 'new' } })).toEqual({ generatedAt: 'new' });
  });
});

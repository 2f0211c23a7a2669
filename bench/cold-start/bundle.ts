/**
 * Bundles the handlers as the CDK's NodejsFunction does for this stack (infra/cdk/api-function.ts), by
 * calling the project's esbuild straight: synthesizing the app would bundle the same way, slower.
 * The CDK runs `esbuild --bundle <entry> --target=node22 --platform=node --format=esm
 * --outfile=<asset>/index.mjs --minify --sourcemap --main-fields=module,main --banner:js=<banner>` from
 * the project root, with the stack's `--alias` substitutions, `--define`s and `--external`s (the beside
 * modules, which a bundle imports from their own files next to it; infra/cdk/bundling.ts) and nothing else
 * external (bundleAwsSDK); the metafile is added here. test/bench/cold-start.test.ts checks
 * api-function.ts still says so.
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { ESM_REQUIRE_BANNER, LAMBDA_BUNDLE_ALIASES, LAMBDA_BUNDLE_DEFINES, LAMBDA_BUNDLE_EXTERNALS } from '../../infra/cdk/bundling';
import type { BundleTarget } from './functions';

export { ESM_REQUIRE_BANNER };

/**
 * esbuild's options for the functions, as the CDK passes them for each (plus the metafile). They are
 * built in one call, each entry into outDir/<id>/index.mjs: without code splitting every entry still
 * gets its own whole bundle, byte for byte what a build of its own makes, and the call parses the
 * shared modules once. `stackAliases` false leaves out the stack's substitutions (the floor).
 */
export function cdkEsbuildOptions(root: string, outDir: string, targets: readonly BundleTarget[], stackAliases = true): BuildOptions & { metafile: true } {
  return {
    absWorkingDir: root,
    entryPoints: targets.map((target) => ({ in: resolve(root, target.entry), out: `${target.id}/index` })),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: false,
    target: 'node22',
    platform: 'node',
    format: 'esm',
    minify: true,
    sourcemap: true,
    mainFields: ['module', 'main'],
    banner: { js: ESM_REQUIRE_BANNER },
    ...(stackAliases
      ? { external: [...LAMBDA_BUNDLE_EXTERNALS], define: { ...LAMBDA_BUNDLE_DEFINES }, alias: { ...LAMBDA_BUNDLE_ALIASES } }
      : { external: [] }),
    metafile: true,
    logLevel: 'warning',
  };
}

export type Bundle = {
  target: BundleTarget;
  /** The bundle's index.mjs. */
  file: string;
  bytes: number;
  /** Its source map (index.mjs.map, shipped beside it). */
  mapBytes: number;
  /** The build's metafile (every bundle's), and the key of this bundle's index.mjs among its outputs. */
  metafile: Metafile;
  outputKey: string;
};

/**
 * Bundles every target into outDir/<id>/index.mjs (ids must be unique): one esbuild call for the
 * targets with the stack's substitutions, one for those without.
 */
export async function bundleAll(root: string, outDir: string, targets: readonly BundleTarget[]): Promise<Bundle[]> {
  const ids = new Set(targets.map((target) => target.id));
  if (ids.size !== targets.length) throw new Error('two bundle targets share an id');
  const metafiles = new Map<boolean, Metafile>();
  for (const stackAliases of [true, false]) {
    const group = targets.filter((target) => target.stackAliases === stackAliases);
    if (group.length > 0) metafiles.set(stackAliases, (await build(cdkEsbuildOptions(root, outDir, group, stackAliases))).metafile);
  }
  return targets.map((target) => {
    const metafile = metafiles.get(target.stackAliases) as Metafile;
    const file = join(outDir, target.id, 'index.mjs');
    const outputKey = Object.keys(metafile.outputs).find((key) => key.endsWith(`/${target.id}/index.mjs`));
    if (!outputKey) throw new Error(`${target.id}: esbuild reported no index.mjs output`);
    return { target, file, bytes: statSync(file).size, mapBytes: statSync(`${file}.map`).size, metafile, outputKey };
  });
}

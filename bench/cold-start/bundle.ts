/**
 * Bundles the handlers as the CDK's NodejsFunction does for this stack (infra/cdk/api-function.ts), by
 * calling the project's esbuild straight: synthesizing the app would bundle the same way, slower.
 * The CDK runs `esbuild --bundle <entry> --target=node22 --platform=node --format=esm
 * --outfile=<asset>/index.mjs --minify --sourcemap --main-fields=module,main --banner:js=<banner>` from
 * the project root, with no --external (bundleAwsSDK, externalModules []); the metafile is added here.
 * test/bench/cold-start.test.ts checks api-function.ts still says so.
 */
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import type { BundleTarget } from './functions';

/** The banner of infra/cdk/api-function.ts: lets the ESM bundle load CommonJS dependencies that call require(). */
export const ESM_REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/**
 * esbuild's options for the functions, as the CDK passes them for each (plus the metafile). They are
 * built in one call, each entry into outDir/<id>/index.mjs: without code splitting every entry still
 * gets its own whole bundle, byte for byte what a build of its own makes, and the call parses the
 * shared modules once.
 */
export function cdkEsbuildOptions(root: string, outDir: string, targets: readonly BundleTarget[]): BuildOptions & { metafile: true } {
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
    external: [],
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

/** Bundles every target into outDir/<id>/index.mjs (ids must be unique). */
export async function bundleAll(root: string, outDir: string, targets: readonly BundleTarget[]): Promise<Bundle[]> {
  const ids = new Set(targets.map((target) => target.id));
  if (ids.size !== targets.length) throw new Error('two bundle targets share an id');
  const { metafile } = await build(cdkEsbuildOptions(root, outDir, targets));
  return targets.map((target) => {
    const file = join(outDir, target.id, 'index.mjs');
    const outputKey = Object.keys(metafile.outputs).find((key) => key.endsWith(`/${target.id}/index.mjs`));
    if (!outputKey) throw new Error(`${target.id}: esbuild reported no index.mjs output`);
    return { target, file, bytes: statSync(file).size, mapBytes: statSync(`${file}.map`).size, metafile, outputKey };
  });
}

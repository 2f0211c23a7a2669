/**
 * What every Lambda bundle is built with beyond esbuild's plain settings, passed by
 * infra/cdk/api-function.ts and by the cold-start bench (bench/cold-start/bundle.ts): import
 * substitutions (esbuild's alias; targets relative to the project root, where esbuild runs), and the
 * beside modules (external to the bundle, built into their own file next to it, named by a define).
 * Tests, the local stack and the operator CLI import the real packages and modules.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Node built-ins the bundles import, each taken as CommonJS (`process.getBuiltinModule`) instead of
 * through an ESM `import`: an ESM import of a built-in builds its module namespace, which reads every
 * export, lazy ones included. `node:http`'s lazy WebSocket, CloseEvent and MessageEvent load undici
 * (Node's fetch) that way: about 7 ms, and the built-ins' facades about 12 ms of a function's ~70 ms
 * import in all (docs/decisions.md, "Bundles"). The module objects are the same either way.
 */
export const BUILTIN_SHIMS: readonly string[] = [
  'async_hooks',
  'buffer',
  'child_process',
  'console',
  'crypto',
  'dns',
  'dns/promises',
  'events',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'querystring',
  'stream',
  'string_decoder',
  'timers',
  'timers/promises',
  'tls',
  'url',
  'util',
  'worker_threads',
  'zlib',
];

/** The shim file of a built-in (infra/bundle-shims/<name>.cjs, `/` written `-`). */
export function builtinShimPath(builtin: string): string {
  return `./infra/bundle-shims/${builtin.replace('/', '-')}.cjs`;
}

/** The text of a built-in's shim (a test checks each file holds exactly this). */
export function builtinShimSource(builtin: string): string {
  return `// Generated shape (infra/cdk/bundling.ts, BUILTIN_SHIMS): node:${builtin} as CommonJS, without an ESM facade.\nmodule.exports = process.getBuiltinModule('node:${builtin}');\n`;
}

export const LAMBDA_BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  // The SDK's default credential chain → the environment only (shared/adapters/aws/lambda-credentials.ts; docs/decisions.md, "Bundles").
  '@aws-sdk/credential-provider-node': './shared/adapters/aws/lambda-credentials.ts',
  ...Object.fromEntries(BUILTIN_SHIMS.flatMap((builtin) => [`node:${builtin}`, builtin].map((name) => [name, builtinShimPath(builtin)]))),
};

/** The aliases as esbuild command-line values (`--alias:from=to`), as the CDK's `esbuildArgs` takes them. */
export function aliasArgs(aliases: Readonly<Record<string, string>> = LAMBDA_BUNDLE_ALIASES): string[] {
  return Object.entries(aliases).map(([from, to]) => `${from}=${to}`);
}

/**
 * A module a function loads lazily from its own file beside the bundle's index.mjs, instead of from the
 * bundle (docs/decisions.md, "Issue 44: every bundle within 512 KB"): the bundle keeps only the
 * `import()` of that file, and each function whose handler reaches `importer` gets the file in its asset.
 */
export type BesideBundleModule = {
  /** The module bundled on its own, relative to the project root. */
  entry: string;
  /** Its file beside index.mjs. */
  file: string;
  /** The module that imports it, through `import('./<entry's name>')` or, in a bundle, the file named by `define`. */
  importer: string;
  /** The global the importer reads (declared there, never set outside a bundle): esbuild's define sets it to `./<file>`. */
  define: string;
};

export const BESIDE_BUNDLE_MODULES: readonly BesideBundleModule[] = [
  {
    // zxcvbn and its common, English and pt-BR dictionaries: about 2.2 MB, read only when a password is set.
    entry: 'shared/domain/panel/password-strength.ts',
    file: 'password-strength.mjs',
    importer: 'shared/domain/panel/password-policy.ts',
    define: 'PASSWORD_STRENGTH_BESIDE_BUNDLE',
  },
];

/** The import path of a beside module as its importer writes it (`./password-strength`): external to every bundle. */
export function besideImportPath(module: BesideBundleModule): string {
  const name = module.entry.slice(module.entry.lastIndexOf('/') + 1).replace(/\.ts$/, '');
  return `./${name}`;
}

/** esbuild's `define` of every bundle: each beside module's global set to its file (a JSON string, as esbuild takes it). */
export const LAMBDA_BUNDLE_DEFINES: Readonly<Record<string, string>> = Object.fromEntries(
  BESIDE_BUNDLE_MODULES.map((module) => [module.define, JSON.stringify(`./${module.file}`)]),
);

/** esbuild's `external` of every bundle: the beside modules, which the bundles import from their own files. */
export const LAMBDA_BUNDLE_EXTERNALS: readonly string[] = BESIDE_BUNDLE_MODULES.map(besideImportPath);

/** The project's esbuild, the one the CDK bundles with (a local bundling: forceDockerBundling is false). */
export const ESBUILD = path.join(path.dirname(createRequire(import.meta.url).resolve('esbuild/package.json')), 'bin', 'esbuild');

/** The banner of every bundle (infra/cdk/api-function.ts): lets an ESM bundle load CommonJS dependencies that call require(). */
export const ESM_REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/**
 * esbuild's command-line arguments that build a beside module into `outfile`, with the functions'
 * own settings (ESM for Node 22, minified, main fields module,main, the require banner, nothing
 * external) and no source map: the module is a library and its dictionaries, with no code of ours.
 */
export function besideBundleArgs(module: BesideBundleModule, outfile: string): string[] {
  return [
    module.entry,
    '--bundle',
    '--platform=node',
    '--target=node22',
    '--format=esm',
    '--minify',
    '--main-fields=module,main',
    `--banner:js=${ESM_REQUIRE_BANNER}`,
    '--log-level=warning',
    `--outfile=${outfile}`,
  ];
}

/** A word for bash, in single quotes. */
function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The shell commands the CDK runs after it bundled a function into `outputDir` (NodejsFunction's
 * afterBundling hook, run by bash from the project root): for each beside module whose file the
 * bundle's index.mjs names (the string its `define` put there, present only when the handler reaches
 * the importer), build that module beside it. A function that never reaches it gets no such file.
 */
export function besideBundleCommands(outputDir: string, esbuild: string): string[] {
  return BESIDE_BUNDLE_MODULES.map((module) => {
    const build = [esbuild, ...besideBundleArgs(module, `${outputDir}/${module.file}`)].map(shellQuote).join(' ');
    return `if grep -qF ${shellQuote(`./${module.file}`)} ${shellQuote(`${outputDir}/index.mjs`)}; then ${build}; fi`;
  });
}

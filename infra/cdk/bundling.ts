/**
 * Import substitutions of every Lambda bundle (esbuild's alias, passed by infra/cdk/api-function.ts
 * and by the cold-start bench, bench/cold-start/bundle.ts). Targets are relative to the project root,
 * where esbuild runs. Tests, the local stack and the operator CLI import the real packages.
 */

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

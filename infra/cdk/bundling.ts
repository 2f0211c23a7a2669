/**
 * Import substitutions of every Lambda bundle (esbuild's alias, passed by infra/cdk/api-function.ts
 * and by the cold-start bench, bench/cold-start/bundle.ts). Targets are relative to the project root,
 * where esbuild runs. Tests, the local stack and the operator CLI import the real packages.
 */
export const LAMBDA_BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  // The SDK's default credential chain → the environment only (shared/aws/lambda-credentials.ts; docs/decisions.md, "Bundles").
  '@aws-sdk/credential-provider-node': './shared/aws/lambda-credentials.ts',
};

/** The aliases as esbuild command-line values (`--alias:from=to`), as the CDK's `esbuildArgs` takes them. */
export function aliasArgs(aliases: Readonly<Record<string, string>> = LAMBDA_BUNDLE_ALIASES): string[] {
  return Object.entries(aliases).map(([from, to]) => `${from}=${to}`);
}

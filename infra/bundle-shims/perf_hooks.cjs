// Generated shape (infra/cdk/bundling.ts, BUILTIN_SHIMS): node:perf_hooks as CommonJS, without an ESM facade.
module.exports = process.getBuiltinModule('node:perf_hooks');

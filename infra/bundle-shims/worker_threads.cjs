// Generated shape (infra/cdk/bundling.ts, BUILTIN_SHIMS): node:worker_threads as CommonJS, without an ESM facade.
module.exports = process.getBuiltinModule('node:worker_threads');

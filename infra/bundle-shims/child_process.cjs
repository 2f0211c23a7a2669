// Generated shape (infra/cdk/bundling.ts, BUILTIN_SHIMS): node:child_process as CommonJS, without an ESM facade.
module.exports = process.getBuiltinModule('node:child_process');

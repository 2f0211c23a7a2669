// Generated shape (infra/cdk/bundling.ts, BUILTIN_SHIMS): node:fs/promises as CommonJS, without an ESM facade.
module.exports = process.getBuiltinModule('node:fs/promises');

// Generated shape (infra/cdk/bundling.ts, BUILTIN_SHIMS): node:dns/promises as CommonJS, without an ESM facade.
module.exports = process.getBuiltinModule('node:dns/promises');

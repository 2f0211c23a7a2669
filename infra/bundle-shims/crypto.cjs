// Generated shape (infra/cdk/bundling.ts, BUILTIN_SHIMS): node:crypto as CommonJS, without an ESM facade.
module.exports = process.getBuiltinModule('node:crypto');

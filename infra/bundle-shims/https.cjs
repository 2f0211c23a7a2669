// Generated shape (infra/cdk/bundling.ts, BUILTIN_SHIMS): node:https as CommonJS, without an ESM facade.
module.exports = process.getBuiltinModule('node:https');

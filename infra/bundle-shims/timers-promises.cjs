// Generated shape (infra/cdk/bundling.ts, BUILTIN_SHIMS): node:timers/promises as CommonJS, without an ESM facade.
module.exports = process.getBuiltinModule('node:timers/promises');

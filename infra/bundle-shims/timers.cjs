// Generated shape (infra/cdk/bundling.ts, BUILTIN_SHIMS): node:timers as CommonJS, without an ESM facade.
module.exports = process.getBuiltinModule('node:timers');

// Generated shape (infra/cdk/bundling.ts, BUILTIN_SHIMS): node:async_hooks as CommonJS, without an ESM facade.
module.exports = process.getBuiltinModule('node:async_hooks');

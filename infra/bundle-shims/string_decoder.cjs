// Generated shape (infra/cdk/bundling.ts, BUILTIN_SHIMS): node:string_decoder as CommonJS, without an ESM facade.
module.exports = process.getBuiltinModule('node:string_decoder');

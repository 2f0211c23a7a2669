// Generated shape (infra/cdk/bundling.ts, BUILTIN_SHIMS): node:http2 as CommonJS, without an ESM facade.
module.exports = process.getBuiltinModule('node:http2');

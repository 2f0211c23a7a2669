/**
 * zxcvbn and its dictionaries (common, English, pt-BR), gathered for the password policy
 * (./password-policy.ts), which configures them. About 2.2 MB of the 2.7 MB a function reaching the
 * policy once bundled, so in a Lambda this module is NOT in the function's bundle: the bundling
 * (infra/cdk/bundling.ts, BESIDE_BUNDLE_MODULES) builds it on its own into password-strength.mjs beside
 * index.mjs, and the policy imports that file the first time a password is estimated, never at a cold
 * start (docs/decisions.md, "Issue 44: every bundle within 512 KB"). Tests and the local server import
 * it from node_modules as any module.
 */
export { ZxcvbnFactory } from '@zxcvbn-ts/core';
export type { ZxcvbnFactory as Estimator } from '@zxcvbn-ts/core';
export { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
export { dictionary as englishDictionary } from '@zxcvbn-ts/language-en';
export { dictionary as portugueseDictionary, translations as portugueseTranslations } from '@zxcvbn-ts/language-pt-br';

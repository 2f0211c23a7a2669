/**
 * What the Lambda bundles get instead of `@aws-sdk/credential-provider-node` (an esbuild alias,
 * infra/cdk/bundling.ts): the SDK's default credential chain reduced to its first link, the
 * environment. Every SDK client of a function (DynamoDB, Secrets Manager, SQS) created without
 * explicit credentials resolves them through this module's `defaultProvider`.
 *
 * In Lambda the execution role's credentials are always in the environment (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), and the default chain takes them from there too: the
 * rest of the chain (SSO, web identity, profiles, process, container and instance metadata) never
 * runs in a function, but its clients (@aws-sdk/nested-clients: STS, SSO, SSO-OIDC, sign-in) weighed
 * about 130 KB of every bundle. Only the bundles are affected: tests, the local stack and the operator
 * CLI (infra/admin, profiles and SSO) import the SDK unbundled and keep the whole default chain.
 * The SDK's clients import `defaultProvider` only; should a later version import another name,
 * esbuild fails the build (no matching export) rather than bundling something else.
 */
import { fromEnv, type FromEnvInit } from '@aws-sdk/credential-provider-env';
import type { AwsCredentialIdentityProvider } from '@smithy/types';

/** The clients call it with their own configuration (logger, profile…); only the logger is read. */
export const defaultProvider = (init: FromEnvInit = {}): AwsCredentialIdentityProvider => fromEnv(init);

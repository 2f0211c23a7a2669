/**
 * Vitest setup file (vitest.config.ts `setupFiles`): handlers the tests call in-process (invoke,
 * invokeRoute) run as their route's function, and their AWS SDK calls are evaluated against that
 * function's synthesized role, as in the local stack (infra/local/iam/). Denials go to the run's
 * denial log; the global teardown fails the run on any no test expected.
 */
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { installIamEvaluation } from '../../infra/local/iam/hook';
import type { LocalIamPolicies } from '../../infra/local/iam/policies';

const { policiesFile, denialsDir } = inject('iamEvaluation');
installIamEvaluation(JSON.parse(readFileSync(policiesFile, 'utf8')) as LocalIamPolicies, denialsDir);

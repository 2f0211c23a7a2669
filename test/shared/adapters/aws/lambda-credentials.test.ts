import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LAMBDA_BUNDLE_ALIASES } from '../../../../infra/cdk/bundling';
import * as lambdaCredentials from '../../../../shared/adapters/aws/lambda-credentials';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const PACKAGE = '@aws-sdk/credential-provider-node';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the credentials of the Lambda bundles (shared/adapters/aws/lambda-credentials.ts)', () => {
  it('takes the credentials Lambda puts in the environment, session token included', async () => {
    vi.stubEnv('AWS_PROFILE', '');
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'ASIAEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    vi.stubEnv('AWS_SESSION_TOKEN', 'session');
    const credentials = await lambdaCredentials.defaultProvider()();
    expect(credentials).toMatchObject({ accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'session' });
  });

  it('fails without them: no other source is tried', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', '');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', '');
    await expect(lambdaCredentials.defaultProvider()()).rejects.toThrow(/environment variable credentials/);
  });

  it("is what the bundles get instead of the SDK's default chain", () => {
    expect(LAMBDA_BUNDLE_ALIASES[PACKAGE]).toBe('./shared/adapters/aws/lambda-credentials.ts');
  });

  it("exports every name the installed SDK packages import from the default chain's package", () => {
    const sdk = join(ROOT, 'node_modules', '@aws-sdk');
    const imported = new Set<string>();
    for (const name of readdirSync(sdk)) {
      const runtimeConfig = join(sdk, name, 'dist-es', 'runtimeConfig.js');
      let source: string;
      try {
        source = readFileSync(runtimeConfig, 'utf8');
      } catch {
        continue;
      }
      for (const match of source.matchAll(/import \{([^}]*)\} from "@aws-sdk\/credential-provider-node"/g)) {
        for (const spec of (match[1] ?? '').split(',')) imported.add(spec.trim().split(/\s+as\s+/)[0] ?? '');
      }
    }
    expect(imported.size).toBeGreaterThan(0);
    for (const name of imported) expect(Object.keys(lambdaCredentials), name).toContain(name);
  });
});

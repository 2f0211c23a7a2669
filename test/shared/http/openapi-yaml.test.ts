import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lambdaContext, toHttpApiEvent } from '../../../infra/local/apigw-event';
import { loadHandler } from '../../../infra/local/handlers';
import { OPENAPI_YAML_BROTLI_BASE64 } from '../../../shared/http/openapi-yaml.generated';
import { decodeOpenApiYaml, encodeOpenApiYaml, OPENAPI_YAML_MODULE_PATH, openApiYamlModuleSource, renderOpenApiYaml } from '../../../shared/http/openapi-yaml';
import { routes } from '../../../shared/http/routes';
import { ROOT } from '../../support/local-stack-process';

/** 'up to date', or where two texts first differ (a 540 KB diff says nothing). */
function firstDifference(fresh: string, checkedIn: string): string {
  const [a, b] = [fresh.split('\n'), checkedIn.split('\n')];
  const at = a.findIndex((line, i) => line !== b[i]);
  const first = at === -1 && a.length !== b.length ? Math.min(a.length, b.length) : at;
  return first === -1 ? 'up to date' : `stale from line ${first + 1}: rendered ${JSON.stringify(a[first])}, checked in ${JSON.stringify(b[first])}`;
}

describe('shared/http/openapi-yaml.generated.ts (the document GET /developers/openapi.yaml serves, rendered at build time)', () => {
  const fresh = renderOpenApiYaml();

  it('holds the document the current route table renders: regenerate with scripts/generate-openapi-types.ts when this fails', () => {
    expect(firstDifference(fresh, decodeOpenApiYaml(OPENAPI_YAML_BROTLI_BASE64))).toBe('up to date');
    expect(decodeOpenApiYaml(OPENAPI_YAML_BROTLI_BASE64) === fresh).toBe(true);
  });

  it('is the text the generator writes for it', () => {
    expect(readFileSync(OPENAPI_YAML_MODULE_PATH, 'utf8')).toBe(openApiYamlModuleSource(fresh));
  });

  it('round-trips any text, non-ASCII included', () => {
    const text = 'title: "Pagamentos — ação"\n€ ✓\n';
    expect(decodeOpenApiYaml(encodeOpenApiYaml(text))).toBe(text);
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('is served byte for byte by the function, as YAML', async () => {
    // The pipeline reads the configuration on every route; this one touches neither the table nor the secret.
    vi.stubEnv('TABLE_NAME', 'unused');
    vi.stubEnv('MASTER_KEY_SECRET_ID', 'unused');
    const route = routes.openApiDocument;
    const event = toHttpApiEvent(
      { method: 'GET', url: route.path, headers: {}, body: Buffer.alloc(0), sourceIp: '203.0.113.9', host: 'localhost' },
      `${route.method} ${route.path}`,
      {},
    );
    const handler = await loadHandler(ROOT, route.handler);
    const result = (await handler(event, lambdaContext(route.id))) as APIGatewayProxyStructuredResultV2;
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['Content-Type']).toBe('application/yaml; charset=utf-8');
    expect(result.isBase64Encoded ? Buffer.from(String(result.body), 'base64').toString('utf8') : result.body).toBe(fresh);
  });
});

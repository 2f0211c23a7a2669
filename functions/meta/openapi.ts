import { brotliDecompressSync } from 'node:zlib';
import { httpHandler } from '../../shared/http/pipeline';
import { metaRoutes as routes } from '../../shared/http/route-table/meta';
import { OPENAPI_YAML_BROTLI_BASE64 } from '../../shared/http/openapi-yaml.generated';

let document: string | undefined;

/**
 * GET /developers/openapi.yaml: the machine-readable specification (spec 9). Rendered at build time
 * (shared/http/openapi-yaml.ts: the function bundles neither the schemas nor the YAML library),
 * decompressed once per container.
 */
export const handler = httpHandler(routes.openApiDocument, async () => {
  document ??= brotliDecompressSync(Buffer.from(OPENAPI_YAML_BROTLI_BASE64, 'base64')).toString('utf8');
  return { status: 200, body: document, contentType: 'application/yaml; charset=utf-8' };
});

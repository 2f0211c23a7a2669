import { stringify } from 'yaml';
import { httpHandler } from '../../shared/http/pipeline';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { routeList, routes } from '../../shared/http/routes';

let document: string | undefined;

/** GET /developers/openapi.yaml: the machine-readable specification (spec 9), built once per container. */
export const handler = httpHandler(routes.openApiDocument, async () => {
  document ??= stringify(buildOpenApiDocument(routeList), { aliasDuplicateObjects: false, defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' });
  return { status: 200, body: document, contentType: 'application/yaml; charset=utf-8' };
});

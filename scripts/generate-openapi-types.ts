/**
 * Regenerates what is derived from the OpenAPI document the route table builds: test/support/generated/openapi.d.ts
 * (openapi-typescript), for the typed client (openapi-fetch) the walk-through test uses, and
 * shared/http/openapi-yaml.generated.ts, the document GET /developers/openapi.yaml serves, rendered at
 * build time. Unit tests fail when either checked-in file is stale: run
 * `node_modules/node/bin/node --import tsx scripts/generate-openapi-types.ts` after changing a route or a schema.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { OPENAPI_YAML_MODULE_PATH, openApiYamlModuleSource, renderOpenApiYaml } from '../shared/http/openapi-yaml';
import { GENERATED_TYPES_PATH, openApiTypesSource } from '../test/support/openapi-types';

const text = await openApiTypesSource();
writeFileSync(GENERATED_TYPES_PATH, text);
console.log(`wrote ${relative(process.cwd(), GENERATED_TYPES_PATH)} (${text.length} characters)`);

const yaml = renderOpenApiYaml();
const module = openApiYamlModuleSource(yaml);
writeFileSync(OPENAPI_YAML_MODULE_PATH, module);
console.log(`wrote ${relative(process.cwd(), OPENAPI_YAML_MODULE_PATH)} (${Buffer.byteLength(yaml)} bytes of YAML in ${module.length} characters)`);

/**
 * Regenerates test/support/generated/openapi.d.ts (openapi-typescript) from the OpenAPI document the
 * route table builds, for the typed client (openapi-fetch) the walk-through test uses. A unit test
 * fails when the checked-in file is stale: run
 * `node_modules/node/bin/node --import tsx scripts/generate-openapi-types.ts` after changing a route or a schema.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { GENERATED_TYPES_PATH, openApiTypesSource } from '../test/support/openapi-types';

const text = await openApiTypesSource();
writeFileSync(GENERATED_TYPES_PATH, text);
console.log(`wrote ${relative(process.cwd(), GENERATED_TYPES_PATH)} (${text.length} characters)`);

/** The API version events and the OpenAPI document carry (spec 6.2: `api_version`). Apart from schemas/ so the outbox bundles no zod. */
export const API_VERSION = '2026-10-14';

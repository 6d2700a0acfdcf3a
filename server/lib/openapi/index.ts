/**
 * The OpenAPI description of the API (`/api/docs/json`, browsable at `/api/docs`), made from
 * the routes; `ruleset.ts` holds the rules it is linted against in the tests.
 */
export { createTransform, transformObject } from './describe.js';
export { ERROR_BODY, errorBodySchema, errorExample } from './error-responses.js';
export { operationIdOf } from './operation-ids.js';
export { registerApiDescription } from './register.js';
export { listDoc, type MultipartDoc } from './route-doc.js';
export { SERVICES } from './services.js';

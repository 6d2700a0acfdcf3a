// `npm run api:client`: writes the OpenAPI description the routes produce to
// shared/api/openapi.json and the typed client's types generated from it to
// shared/api/schema.d.ts. Run it after changing a route's schema; a test fails until then.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_FILES, generateApiFiles } from './api-description.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const files = await generateApiFiles();
for (const [kind, file] of Object.entries(API_FILES)) {
  const target = path.join(root, file);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, files[kind as keyof typeof API_FILES]);
  console.log(`wrote ${file}`);
}

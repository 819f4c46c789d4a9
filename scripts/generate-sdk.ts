/** npm run sdk:generate: writes sdk/openapi.json, sdk/src/schema.ts, sdk/src/operations.ts and sdk/src/models.ts from the served document. */
import fs from 'node:fs';
import { sdkFiles, servedDocument } from './sdk-files.js';

for (const [file, content] of Object.entries(await sdkFiles(await servedDocument()))) {
  fs.writeFileSync(file, content);
  console.warn(`wrote ${file}`);
}

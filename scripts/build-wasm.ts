/** Writes each WebAssembly module's TypeScript file from its text source (scripts/wasm-modules.ts). */
import fs from 'node:fs';
import { assembled, moduleText, WASM_MODULES } from './wasm-modules.js';

for (const { source, module } of WASM_MODULES) {
  fs.writeFileSync(module, moduleText(source, await assembled(source)));
  process.stdout.write(`${source} -> ${module}\n`);
}

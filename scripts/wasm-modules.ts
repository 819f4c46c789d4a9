/**
 * The project's WebAssembly, written as text (.wat) beside the code that runs it and kept assembled in a TypeScript
 * module of its own, so that the service needs no assembler and no file beside its JavaScript. `npm run build:wasm`
 * writes the assembled modules; test/container-codings.test.ts fails when one differs from its source.
 */
import fs from 'node:fs';
import wabt from 'wabt';

/** Each text source, and the module that holds it assembled. */
export const WASM_MODULES = [
  { source: 'src/search/container-decoding.wat', module: 'src/search/container-decoding-module.ts' },
];

/** The binary of a text source. */
export async function assembled(source: string): Promise<Uint8Array> {
  const parsed = (await wabt()).parseWat(source, fs.readFileSync(source, 'utf8'));
  try {
    parsed.validate();
    return parsed.toBinary({}).buffer;
  } finally {
    parsed.destroy();
  }
}

/** The TypeScript module that holds a binary assembled from `source`. */
export function moduleText(source: string, binary: Uint8Array): string {
  return [
    `// Assembled from ${source.split('/').at(-1)} by \`npm run build:wasm\`: edit that file, then run it.`,
    `export const WASM_BASE64 =`,
    `  '${Buffer.from(binary).toString('base64')}';`,
    '',
  ].join('\n');
}

/**
 * Extracts the facts of the real service's published OpenAPI document (a copy given as the argument) that our contract
 * test holds the served document against: operations, parameter names and types, request and response field
 * names, types and enums, status codes. No prose or examples. Writes test/fixtures/reference-contract.json.
 *
 *   npx tsx scripts/reference-facts.ts path/to/the-real-service-openapi.json
 */
import fs from 'node:fs';
import path from 'node:path';
import { flattenSchema, type Facts, type OpenApiDocument } from '../support/contract-facts.js';

const source = process.argv[2];
if (!source) {
  console.error('Usage: npx tsx scripts/reference-facts.ts path/to/the-real-service-openapi.json');
  process.exit(2);
}
const doc = JSON.parse(fs.readFileSync(source, 'utf8')) as OpenApiDocument;
const facts: Facts = flattenSchema(doc);
const target = path.resolve(import.meta.dirname, '../test/fixtures/reference-contract.json');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, `${JSON.stringify(facts, null, 1)}\n`);
console.warn(`${Object.keys(facts.operations).length} operations written to ${path.relative(process.cwd(), target)}`);

import { describe, expect, it } from 'vitest';
import {
  decoded,
  eliasFanoBytes,
  ELIAS_FANO,
  GAPS,
  loadCoded,
  lowBitsOf,
  readBits,
  readValues,
  valuesAt,
  writeEliasFano,
} from '../src/search/container-codings.js';
import { WASM_BASE64 } from '../src/search/container-decoding-module.js';
import { SeededRandom } from '../src/demo/random.js';
import { assembled, moduleText, WASM_MODULES } from '../scripts/wasm-modules.js';
import fs from 'node:fs';

/** `count` distinct numbers below 65,536, ascending, with 0 and 65,535 among them when `edges`. */
function someValues(seed: number, count: number, edges: boolean): Uint16Array {
  const random = new SeededRandom(seed);
  const chosen = new Set<number>(edges ? [0, 65_535] : []);
  while (chosen.size < count) chosen.add(Math.floor(random.next() * 65_536));
  return Uint16Array.from([...chosen].sort((a, b) => a - b));
}

/** The values read back from `coded` as `coding`, and the bitset read back, as the numbers it holds. */
function readBack(coding: typeof GAPS | typeof ELIAS_FANO, coded: Uint8Array, count: number) {
  const out = loadCoded(coded, 8192);
  readValues(coding, 0, count);
  const values = [...decoded.words.subarray(valuesAt, valuesAt + count)];
  readBits(coding, 0, count, out);
  const bits: number[] = [];
  for (let value = 0; value < 65_536; value++)
    if (decoded.bytes[out + (value >>> 3)]! & (1 << (value & 7))) bits.push(value);
  return { values, bits };
}

describe('container codings', () => {
  it('the WebAssembly the service runs is its source assembled (npm run build:wasm)', async () => {
    for (const { source, module } of WASM_MODULES) {
      expect(fs.readFileSync(module, 'utf8')).toBe(moduleText(source, await assembled(source)));
    }
    expect(WASM_BASE64.length).toBeGreaterThan(0);
  });

  it('reads Elias-Fano back as written, at every count where the low bits change', () => {
    for (const [seed, count] of [
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 1_000],
      [5, 4_096],
      [6, 4_097],
      [7, 8_192],
      [8, 8_193],
      [9, 30_000],
      [10, 65_536],
    ] as const) {
      for (const edges of count >= 2 ? [false, true] : [false]) {
        const values = someValues(seed, count, edges);
        const coded = new Uint8Array(eliasFanoBytes(count));
        expect(writeEliasFano(values, count, coded, 0)).toBe(coded.length);
        const { values: read, bits } = readBack(ELIAS_FANO, coded, count);
        expect(read).toEqual([...values]);
        expect(bits).toEqual([...values]);
      }
    }
    // About 2 + log2(65,536 / n) bits a document.
    expect(lowBitsOf(6_554)).toBe(3);
    expect(eliasFanoBytes(6_554)).toBe(Math.ceil((6_554 * 3) / 8) + Math.ceil((6_554 + 8_192) / 8));
  });

  it('grows its memory for a run of containers larger than it holds, and reads them back from the new views', () => {
    const values = someValues(11, 6_000, true);
    const container = new Uint8Array(eliasFanoBytes(values.length));
    writeEliasFano(values, values.length, container, 0);
    // Two megabytes of other containers before this one, and room for a bitmap of 200 containers after.
    const run = new Uint8Array(2_000_000 + container.length);
    run.set(container, 2_000_000);
    const before = decoded.bytes.length;
    const out = loadCoded(run, 200 * 8192);
    expect(decoded.bytes.length).toBeGreaterThan(before);
    readValues(ELIAS_FANO, 2_000_000, values.length);
    expect([...decoded.words.subarray(valuesAt, valuesAt + values.length)]).toEqual([...values]);
    readBits(ELIAS_FANO, 2_000_000, values.length, out + 199 * 8192);
    const bits = decoded.bytes.subarray(out + 199 * 8192, out + 200 * 8192);
    expect([...values].every((value) => bits[value >>> 3]! & (1 << (value & 7)))).toBe(true);
  });

  it('reads gaps back, escapes (a gap past 254) included', () => {
    const values = Uint16Array.from([0, 1, 255, 600, 60_000, 65_535]);
    const coded = Uint8Array.from([0, 0, 253, 255, 88, 1, 255, 7, 232, 255, 158, 21]);
    const { values: read, bits } = readBack(GAPS, coded, values.length);
    expect(read).toEqual([...values]);
    expect(bits).toEqual([...values]);
  });
});

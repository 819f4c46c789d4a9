/**
 * How a coded posting (coded-posting.ts) keeps one container (the documents of 65,536 consecutive numbers, by their
 * low 16 bits), and how a container is read back. Three codings:
 *
 * - gaps: each document's distance from the one before, less one, in a byte, or 255 and 2 bytes (a larger gap);
 * - Elias-Fano: each document's low bits (`lowBitsOf` its count) packed, then its high bits in unary, about
 *   2 + log2(65,536 / count) bits a document: half a bitset's bytes for a container a tenth full, where gaps take
 *   four fifths;
 * - a bitset of 8 KB, as CRoaring holds a full container.
 *
 * Written here in JavaScript; read back by WebAssembly (container-decoding.wat), faster than the same loops in
 * JavaScript (docs/performance.md). A run of coded bytes is copied into the decoder's memory once (`loadCoded`); its
 * containers are read out of it into the same memory, where a caller finds them (`decoded`).
 */
import { WASM_BASE64 } from './container-decoding-module.js';

export const GAPS = 0;
export const BITSET = 1;
export const ELIAS_FANO = 2;
export type Coding = typeof GAPS | typeof BITSET | typeof ELIAS_FANO;

export const BITSET_BYTES = 8192;

/** The module's functions: `bits` 1 reads a container as a bitset, 0 as values. */
interface DecodingExports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  gaps(at: number, count: number, out: number, bits: number): void;
  eliasFano(at: number, count: number, low: number, out: number, bits: number): void;
}

/** The part of the WebAssembly API used here (the project's type libraries leave the global undeclared). */
interface WebAssemblyApi {
  Module: new (binary: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}
const { Module, Instance } = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;
const decoding = new Instance(new Module(Buffer.from(WASM_BASE64, 'base64'))).exports as DecodingExports;

/**
 * The decoder's memory: one container's documents read as values from VALUES (128 KB), the coded bytes copied in from
 * CODED, then the room a caller asked for. The decoders read up to SLACK bytes past a container's end, left zero.
 */
const VALUES = 0;
const CODED = 131_072;
const SLACK = 8;

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1)
  throw new Error('Containers are read through little-endian typed arrays, as WebAssembly writes them');

/** Views of all of a memory's bytes: as bytes, 16-bit and 32-bit words. */
const viewsOf = (buffer: ArrayBuffer) => ({
  bytes: new Uint8Array(buffer),
  words: new Uint16Array(buffer),
  longs: new Uint32Array(buffer),
});

/** Views of the decoder's memory, made again when it grows. */
export const decoded = viewsOf(decoding.memory.buffer);

/**
 * Copies `coded` (a run of coded containers) into the decoder's memory, and makes `room` bytes free after it; returns
 * where that room begins (a multiple of 8). What was read out before is overwritten.
 */
export function loadCoded(coded: Uint8Array, room: number): number {
  const out = (CODED + coded.length + SLACK + 7) & ~7;
  const missing = out + room - decoded.bytes.length;
  if (missing > 0) {
    decoding.memory.grow(Math.ceil(missing / 65_536));
    Object.assign(decoded, viewsOf(decoding.memory.buffer));
  }
  decoded.bytes.set(coded, CODED);
  decoded.bytes.fill(0, CODED + coded.length, CODED + coded.length + SLACK);
  return out;
}

/**
 * Reads the container `at` bytes into what `loadCoded` copied in, `count` documents coded as `coding`: its documents'
 * low 16 bits from byte `out` of the decoder's memory on (by default where `valuesAt` says).
 */
export function readValues(coding: Coding, at: number, count: number, out = VALUES): void {
  if (coding !== BITSET) return read(coding, at, count, out, 0);
  const { bytes, words } = decoded;
  for (let byte = 0, n = out >>> 1; byte < BITSET_BYTES; byte++) {
    const bits = bytes[CODED + at + byte]!;
    for (let bit = 0; bit < 8; bit++) if (bits & (1 << bit)) words[n++] = byte * 8 + bit;
  }
}

/** Reads the container as `readValues` does, as a bitset of 8 KB from byte `out` on. */
export function readBits(coding: Coding, at: number, count: number, out: number): void {
  if (coding === BITSET) decoded.bytes.copyWithin(out, CODED + at, CODED + at + BITSET_BYTES);
  else read(coding, at, count, out, 1);
}

function read(coding: typeof GAPS | typeof ELIAS_FANO, at: number, count: number, out: number, bits: number): void {
  if (coding === GAPS) decoding.gaps(CODED + at, count, out, bits);
  else decoding.eliasFano(CODED + at, count, lowBitsOf(count), out, bits);
}

/** Where `readValues` puts a container's documents by default, as an index into `decoded.words`. */
export const valuesAt = VALUES >>> 1;

/** The low bits Elias-Fano keeps of each of `count` documents of a container (the rest it keeps in unary). */
export function lowBitsOf(count: number): number {
  return 31 - Math.clz32(Math.floor(65_536 / count));
}

/** The bytes `count` documents of a container take in Elias-Fano's coding. */
export function eliasFanoBytes(count: number): number {
  const low = lowBitsOf(count);
  return ((count * low + 7) >>> 3) + ((count + (65_536 >>> low) + 7) >>> 3);
}

/** Writes `values[0..count)` (ascending, below 65,536) in Elias-Fano's coding at `into[at..]`, zeroed; returns where they end. */
export function writeEliasFano(values: ArrayLike<number>, count: number, into: Uint8Array, at: number): number {
  const low = lowBitsOf(count);
  const mask = (1 << low) - 1;
  const high = at + ((count * low + 7) >>> 3);
  for (let i = 0; i < count; i++) {
    const value = values[i]!;
    const one = (value >>> low) + i;
    into[high + (one >>> 3)]! |= 1 << (one & 7);
    const bit = i * low;
    for (let part = (value & mask) << (bit & 7), byte = at + (bit >>> 3); part !== 0; part >>>= 8, byte++)
      into[byte]! |= part & 0xff;
  }
  return at + eliasFanoBytes(count);
}

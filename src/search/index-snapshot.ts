/**
 * A saved copy of an index, so that an instance starts in seconds instead of building from the tables: the format,
 * a JSON header, then length-prefixed byte chunks (bitmaps in roaring's portable format, typed arrays), and last an
 * HMAC-SHA256 of all of it keyed by the database's epoch. Written to a temporary file, flushed to disk and renamed,
 * so a crash leaves the old copy or the new one, never half of one. A copy is only ever a starting point: the change
 * log since it was made is applied on top of it; a copy of other code (FORMAT) is ignored, and one whose checksum does
 * not match (damaged, cut short, overwritten, crafted, or made for another database) is refused before any of its
 * bytes is parsed, so no byte sequence in a file can make the reading abort, loop or allocate without bound.
 */
import { createHmac, timingSafeEqual, type Hmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Bumped whenever what an index holds, or how it is written, changes (the tokenizer included). */
export const SNAPSHOT_FORMAT = 8;
const MAGIC = Buffer.from('SVCIDX\n');
const DIGEST_BYTES = 32;

/** A copy that is ours but whose bytes are not what was written (the reason says which check failed). */
export class DamagedCopyError extends Error {}

export interface Snapshot<H> {
  header: H;
  chunks: ChunkReader;
}

/** What writes itself in roaring's portable format: a bitmap. */
export interface PortableChunk {
  getSerializationSizeInBytes(format: 'portable'): number;
  serialize(format: 'portable', into: Uint8Array): unknown;
}

/** What a copy holds, in order: byte arrays (typed arrays' bytes), and bitmaps, in roaring's portable format. */
export type Chunk = Uint8Array | PortableChunk;

/** The bytes of a typed array (a column), as a copy holds them. */
export function bytesOf(values: Float64Array | Uint32Array): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

/** Bytes gathered before each write to the file (and the least the buffer a bitmap is serialized into holds). */
const WRITE_BUFFER_BYTES = 1 << 20;

/**
 * Writes a copy atomically: header and chunks to `file.tmp`, fsync, rename over `file`. `key`: what the checksum is
 * keyed with (the database's epoch: a copy is only ever loaded into the database it came from).
 *
 * The chunks are read and written before the returned promise is first pending (the caller keeps the index still
 * for no longer than that), each bitmap serialized into one reused buffer on its way to the file. A copy is as
 * large as the index (hundreds of megabytes at a million posts): serialized whole first, as it once was, it passed through the
 * process's malloc heap, which kept those pages resident after they were freed (bench/results/performance-history.md).
 */
export async function writeSnapshot(file: string, header: unknown, chunks: readonly Chunk[], key = ''): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  const fd = fs.openSync(temporary, 'w');
  try {
    writeChunks(fd, header, chunks, key);
    await new Promise<void>((resolve, reject) => fs.fsync(fd, (err) => (err ? reject(err) : resolve())));
  } catch (err) {
    fs.closeSync(fd);
    // A copy that could not be written whole (a full disk) leaves no file behind; the last whole copy stays.
    fs.rmSync(temporary, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  await fs.promises.rename(temporary, file);
}

function writeChunks(fd: number, header: unknown, chunks: readonly Chunk[], key: string): void {
  const head = Buffer.from(JSON.stringify(header));
  const table = Buffer.alloc(4 * (chunks.length + 3));
  table.writeUInt32LE(SNAPSHOT_FORMAT, 0);
  table.writeUInt32LE(chunks.length, 4);
  table.writeUInt32LE(head.length, 8);
  chunks.forEach((chunk, i) =>
    table.writeUInt32LE(
      chunk instanceof Uint8Array ? chunk.byteLength : chunk.getSerializationSizeInBytes('portable'),
      4 * (i + 3),
    ),
  );
  const out = new FileWriter(fd, createHmac('sha256', key));
  for (const bytes of [MAGIC, table, head]) out.write(bytes);
  for (const chunk of chunks) {
    if (chunk instanceof Uint8Array) out.write(chunk);
    else out.serialize(chunk);
  }
  out.finish();
}

/** Synchronous writes to a file through one buffer, into which bitmaps are serialized in place; all of it checksummed. */
class FileWriter {
  private buffer = Buffer.allocUnsafeSlow(WRITE_BUFFER_BYTES);
  private used = 0;

  constructor(
    private readonly fd: number,
    private readonly checksum: Hmac,
  ) {}

  write(bytes: Uint8Array): void {
    if (this.used + bytes.byteLength > this.buffer.length) this.flush();
    if (bytes.byteLength > this.buffer.length) {
      this.checksum.update(bytes);
      writeAll(this.fd, bytes);
      return;
    }
    this.buffer.set(bytes, this.used);
    this.used += bytes.byteLength;
  }

  serialize(bitmap: PortableChunk): void {
    const size = bitmap.getSerializationSizeInBytes('portable');
    if (this.used + size > this.buffer.length) this.flush();
    // A bitmap larger than the buffer (a token in most of several million documents) gets a buffer of its size.
    if (size > this.buffer.length) this.buffer = Buffer.allocUnsafeSlow(size);
    bitmap.serialize('portable', this.buffer.subarray(this.used));
    this.used += size;
  }

  flush(): void {
    const bytes = this.buffer.subarray(0, this.used);
    this.checksum.update(bytes);
    writeAll(this.fd, bytes);
    this.used = 0;
  }

  /** Writes what is gathered, then the checksum of everything written. */
  finish(): void {
    this.flush();
    writeAll(this.fd, this.checksum.digest());
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.byteLength; ) done += fs.writeSync(fd, bytes, done, bytes.byteLength - done);
}

/**
 * Opens a copy and reads its header; its chunks are read one at a time as they are taken (the file is never
 * held in memory whole). Null when there is none, it is not one of ours, or it is of another format. Throws
 * DamagedCopyError when its checksum (keyed with `key`) does not match, before anything past the format is read, and
 * when its table does not fit its size. The caller closes the reader.
 */
export function readSnapshot<H>(file: string, key = ''): Snapshot<H> | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const read = (at: number, length: number): Buffer => readAt(fd, size, Buffer.allocUnsafeSlow(length), at);
    if (size < MAGIC.length + 4 || !read(0, MAGIC.length).equals(MAGIC)) return closed(fd, null);
    if (read(MAGIC.length, 4).readUInt32LE(0) !== SNAPSHOT_FORMAT) return closed(fd, null);
    const end = size - DIGEST_BYTES;
    if (end < MAGIC.length + 12 || !timingSafeEqual(checksumOf(fd, end, key), read(end, DIGEST_BYTES)))
      throw new DamagedCopyError('its checksum does not match: damaged, cut short, or made for another database');
    let at = MAGIC.length + 4;
    const count = read(at, 4).readUInt32LE(0);
    const headLength = read(at + 4, 4).readUInt32LE(0);
    at += 8;
    if (at + 4 * count + headLength > end) throw new DamagedCopyError('its table does not fit its size');
    const table = read(at, 4 * count);
    at += 4 * count;
    const header = JSON.parse(read(at, headLength).toString('utf8')) as H;
    at += headLength;
    const lengths = Array.from({ length: count }, (_, i) => table.readUInt32LE(4 * i));
    if (lengths.reduce((sum, length) => sum + length, at) !== end)
      throw new DamagedCopyError('its chunks do not add up to its size');
    return { header, chunks: new ChunkReader(fd, end, at, lengths) };
  } catch (err) {
    fs.closeSync(fd);
    throw err instanceof DamagedCopyError ? err : new DamagedCopyError(`it cannot be read: ${String(err)}`);
  }
}

function closed<T>(fd: number, value: T): T {
  fs.closeSync(fd);
  return value;
}

/** The keyed checksum of the file's first `end` bytes, read through one buffer. */
function checksumOf(fd: number, end: number, key: string): Buffer {
  const hmac = createHmac('sha256', key);
  const buffer = Buffer.allocUnsafeSlow(WRITE_BUFFER_BYTES);
  for (let at = 0; at < end; ) {
    const read = fs.readSync(fd, buffer, 0, Math.min(buffer.length, end - at), at);
    if (read === 0) break;
    hmac.update(buffer.subarray(0, read));
    at += read;
  }
  return hmac.digest();
}

/** Fills `into` with the file's bytes from `at`. */
function readAt(fd: number, size: number, into: Buffer, at: number): Buffer {
  if (at + into.length > size) throw new Error('The index copy ends early');
  for (let done = 0; done < into.length; ) done += fs.readSync(fd, into, done, into.length - done, at + done);
  return into;
}

/**
 * Reads a copy's chunks in order, each from the file when it is taken, into one reused buffer: what a chunk
 * gives is valid until the next is taken (bitmaps and columns are copied out of it as they are restored).
 */
export class ChunkReader {
  private next = 0;
  private buffer = Buffer.allocUnsafeSlow(WRITE_BUFFER_BYTES);

  constructor(
    private readonly fd: number,
    private readonly size: number,
    private at: number,
    private readonly lengths: number[],
  ) {}

  take(): Buffer {
    const length = this.lengths[this.next++];
    if (length === undefined) throw new Error('The index copy ends early');
    if (length > this.buffer.length) this.buffer = Buffer.allocUnsafeSlow(length);
    const chunk = readAt(this.fd, this.size, this.buffer.subarray(0, length), this.at);
    this.at += length;
    return chunk;
  }

  /** The next chunk as a Float64Array (a view: valid until the next chunk is taken). */
  float64(): Float64Array {
    const chunk = this.take();
    return new Float64Array(chunk.buffer, chunk.byteOffset, chunk.byteLength / Float64Array.BYTES_PER_ELEMENT);
  }

  /** The next chunk as a Uint32Array (a view: valid until the next chunk is taken). */
  uint32(): Uint32Array {
    const chunk = this.take();
    return new Uint32Array(chunk.buffer, chunk.byteOffset, chunk.byteLength / Uint32Array.BYTES_PER_ELEMENT);
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/**
 * A saved copy of an index, so that an instance starts in seconds instead of building from the tables: a JSON
 * header, then length-prefixed byte chunks (bitmaps in roaring's portable format, typed arrays). Written to a
 * temporary file, flushed to disk and renamed, so a crash leaves the old copy or the new one, never half of one.
 * A copy is only ever a starting point: the change log since it was made is applied on top of it, and a copy
 * that does not match this database (its epoch), this code (FORMAT) or the log (its horizon) is ignored.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Bumped whenever what an index holds, or how it is written, changes (the tokenizer included). */
export const SNAPSHOT_FORMAT = 7;
const MAGIC = Buffer.from('SVCIDX\n');

export interface Snapshot<H> {
  header: H;
  chunks: ChunkReader;
}

/** What writes itself in roaring's portable format: a bitmap, or a posting kept otherwise (coded-posting.ts). */
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
 * Writes a copy atomically: header and chunks to `file.tmp`, fsync, rename over `file`.
 *
 * The chunks are read and written before the returned promise is first pending (the caller keeps the index still
 * for no longer than that), each bitmap serialized into one reused buffer on its way to the file. A copy is as
 * large as the index (hundreds of megabytes at a million posts): serialized whole first, as it once was, it passed through the
 * process's malloc heap, which kept those pages resident after they were freed (bench/results/performance-history.md).
 */
export async function writeSnapshot(file: string, header: unknown, chunks: readonly Chunk[]): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  const fd = fs.openSync(temporary, 'w');
  try {
    writeChunks(fd, header, chunks);
    await new Promise<void>((resolve, reject) => fs.fsync(fd, (err) => (err ? reject(err) : resolve())));
  } finally {
    fs.closeSync(fd);
  }
  await fs.promises.rename(temporary, file);
}

function writeChunks(fd: number, header: unknown, chunks: readonly Chunk[]): void {
  const head = Buffer.from(JSON.stringify(header));
  const table = Buffer.alloc(4 * (chunks.length + 2));
  table.writeUInt32LE(chunks.length, 0);
  table.writeUInt32LE(head.length, 4);
  chunks.forEach((chunk, i) =>
    table.writeUInt32LE(
      chunk instanceof Uint8Array ? chunk.byteLength : chunk.getSerializationSizeInBytes('portable'),
      4 * (i + 2),
    ),
  );
  const out = new FileWriter(fd);
  for (const bytes of [MAGIC, table, head]) out.write(bytes);
  for (const chunk of chunks) {
    if (chunk instanceof Uint8Array) out.write(chunk);
    else out.serialize(chunk);
  }
  out.flush();
}

/** Synchronous writes to a file through one buffer, into which bitmaps are serialized in place. */
class FileWriter {
  private buffer = Buffer.allocUnsafeSlow(WRITE_BUFFER_BYTES);
  private used = 0;

  constructor(private readonly fd: number) {}

  write(bytes: Uint8Array): void {
    if (this.used + bytes.byteLength > this.buffer.length) this.flush();
    if (bytes.byteLength > this.buffer.length) {
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
    writeAll(this.fd, this.buffer.subarray(0, this.used));
    this.used = 0;
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.byteLength; ) done += fs.writeSync(fd, bytes, done, bytes.byteLength - done);
}

/**
 * Opens a copy and reads its header; its chunks are read one at a time as they are taken (the file is never
 * held in memory whole). Null when there is none or it is not one of ours. The caller closes the reader.
 */
export function readSnapshot<H>(file: string): Snapshot<H> | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const read = (at: number, length: number): Buffer => readAt(fd, size, Buffer.allocUnsafeSlow(length), at);
    if (size < MAGIC.length + 8 || !read(0, MAGIC.length).equals(MAGIC)) throw new Error('not an index copy');
    let at = MAGIC.length;
    const count = read(at, 4).readUInt32LE(0);
    const table = read(at + 4, 4 * (count + 1));
    at += 4 + 4 * (count + 1);
    const headLength = table.readUInt32LE(0);
    const header = JSON.parse(read(at, headLength).toString('utf8')) as H;
    at += headLength;
    const lengths = Array.from({ length: count }, (_, i) => table.readUInt32LE(4 * (i + 1)));
    return { header, chunks: new ChunkReader(fd, size, at, lengths) };
  } catch {
    fs.closeSync(fd);
    return null;
  }
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

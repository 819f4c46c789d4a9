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
export const SNAPSHOT_FORMAT = 3;
const MAGIC = Buffer.from('SVCIDX\n');

export interface Snapshot<H> { header: H; chunks: ChunkReader }

/** Writes a copy atomically: header and chunks to `file.tmp`, fsync, rename over `file`. */
export async function writeSnapshot(file: string, header: unknown, chunks: Uint8Array[]): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  const handle = await fs.promises.open(temporary, 'w');
  try {
    const head = Buffer.from(JSON.stringify(header));
    const lengths = Buffer.alloc(4 * (chunks.length + 1));
    lengths.writeUInt32LE(head.length, 0);
    chunks.forEach((chunk, i) => lengths.writeUInt32LE(chunk.byteLength, 4 * (i + 1)));
    const count = Buffer.alloc(4);
    count.writeUInt32LE(chunks.length, 0);
    await handle.writev([MAGIC, count, lengths, head, ...chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength))]);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rename(temporary, file);
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
    const read = (at: number, length: number): Buffer => {
      if (at + length > size) throw new Error('The index copy ends early');
      const buffer = Buffer.allocUnsafe(length);
      for (let done = 0; done < length;) done += fs.readSync(fd, buffer, done, length - done, at + done);
      return buffer;
    };
    if (size < MAGIC.length + 8 || !read(0, MAGIC.length).equals(MAGIC)) throw new Error('not an index copy');
    let at = MAGIC.length;
    const count = read(at, 4).readUInt32LE(0);
    const table = read(at + 4, 4 * (count + 1));
    at += 4 + 4 * (count + 1);
    const headLength = table.readUInt32LE(0);
    const header = JSON.parse(read(at, headLength).toString('utf8')) as H;
    at += headLength;
    const lengths = Array.from({ length: count }, (_, i) => table.readUInt32LE(4 * (i + 1)));
    return { header, chunks: new ChunkReader(fd, at, lengths, read) };
  } catch {
    fs.closeSync(fd);
    return null;
  }
}

/** Reads a copy's chunks in order, each from the file when it is taken. */
export class ChunkReader {
  private next = 0;

  constructor(
    private readonly fd: number,
    private at: number,
    private readonly lengths: number[],
    private readonly read: (at: number, length: number) => Buffer,
  ) {}

  take(): Buffer {
    const length = this.lengths[this.next++];
    if (length === undefined) throw new Error('The index copy ends early');
    const chunk = this.read(this.at, length);
    this.at += length;
    return chunk;
  }

  /** A Float64Array of the next chunk. */
  float64(): Float64Array {
    const chunk = this.take();
    return new Float64Array(chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength));
  }

  uint32(): Uint32Array {
    const chunk = this.take();
    return new Uint32Array(chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength));
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

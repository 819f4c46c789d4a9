import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { solidPng } from '../../src/media/png.js';

/** A real, decodable solid-colour PNG. */
export const png = (width: number, height: number): Buffer => solidPng(width, height, [0x5a, 0x5a, 0x5a]);

const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });

/** A real GIF of that size. */
export const gif = (width: number, height: number): Promise<Buffer> => solid(width, height).gif().toBuffer();

/** A real JPEG of that size. */
export const jpeg = (width: number, height: number): Promise<Buffer> => solid(width, height).jpeg().toBuffer();

/** A real WebP of that size. */
export const webp = (width: number, height: number): Promise<Buffer> => solid(width, height).webp().toBuffer();

/**
 * A decompression bomb: an all-zero 16-bit RGBA PNG (8 bytes a pixel once decoded) that compresses to a few
 * hundred bytes a row. 2,600 x 2,600 is 54 MB of pixels from a file of about 60 KB.
 */
export function zeroPng16(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([16, 6, 0, 0, 0], 8);
  const pixels = deflateSync(Buffer.alloc(height * (1 + width * 8)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

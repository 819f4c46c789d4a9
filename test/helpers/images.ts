import sharp from 'sharp';
import { solidPng } from '../../src/media/png.js';

/** A real, decodable solid-colour PNG. */
export const png = (width: number, height: number): Buffer => solidPng(width, height, [0x5a, 0x5a, 0x5a]);

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });

/** A real GIF of that size. */
export const gif = (width: number, height: number): Promise<Buffer> => solid(width, height).gif().toBuffer();

/** A real JPEG of that size. */
export const jpeg = (width: number, height: number): Promise<Buffer> => solid(width, height).jpeg().toBuffer();

/** A real WebP of that size. */
export const webp = (width: number, height: number): Promise<Buffer> => solid(width, height).webp().toBuffer();

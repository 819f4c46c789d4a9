import type Sharp from 'sharp';

let loading: Promise<typeof Sharp> | undefined;

/**
 * sharp, loaded at the first upload, in the image process (image-process.ts) that runs this file: libvips and its
 * libraries take tens of megabytes of resident memory from the moment they load. Each upload is decoded once, so libvips'
 * operation cache would only hold memory; one thread per image: how many images are decoded at once, and so how
 * many cores uploads can take, is the decode gate's (decode-gate.ts).
 */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loading;
}

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif';

export interface ProcessedImage {
  contentType: `image/${ImageFormat}`;
  extension: 'jpg' | 'png' | 'webp' | 'gif';
  /** The image as re-encoded here: what is stored and served, never the uploaded bytes. */
  bytes: Buffer;
  width: number;
  height: number;
}

/** Why an upload was refused: not one of the four formats, it does not decode, too many pixels, or too many bytes once decoded. */
export type ImageRefusal = 'not-an-image' | 'undecodable' | 'too-many-pixels' | 'too-many-bytes';

/** Bytes per sample of libvips' band formats (sharp's `depth`). */
const SAMPLE_BYTES: Record<string, number> = {
  uchar: 1,
  char: 1,
  ushort: 2,
  short: 2,
  uint: 4,
  int: 4,
  float: 4,
  complex: 8,
  double: 8,
  dpcomplex: 16,
};

export interface ImageLimits {
  maxPixels: number;
  /** Width × height (every frame) × channels × bytes per sample: what decoding would allocate. */
  maxDecodedBytes: number;
}

const EXTENSION: Record<ImageFormat, ProcessedImage['extension']> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
};

/** The format the first bytes announce, or null: the name and the declared type of an upload are never trusted. */
function announcedFormat(bytes: Buffer): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'gif';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return null;
}

/**
 * Decodes an upload with libvips (sharp) and encodes it again in its own format: the dimensions are those of
 * the decoded image, the orientation its EXIF names is applied to the pixels, and nothing but pixels survives
 * (EXIF with its GPS position, XMP, comments, and whatever a polyglot hid after or between the image's own
 * data). A file that does not decode in full, or whose header claims more than `maxPixels` or pixels taking more
 * than `maxDecodedBytes` (a 16-bit RGBA PNG takes four 16-bit samples a pixel), is refused from its header, before its
 * pixels are allocated. Animated GIF and WebP keep their frames.
 */
export async function processImage(
  bytes: Buffer,
  { maxPixels, maxDecodedBytes }: ImageLimits,
): Promise<ProcessedImage | ImageRefusal> {
  const format = announcedFormat(bytes);
  if (!format) return 'not-an-image';
  const animated = format === 'gif' || format === 'webp';
  const sharp = await loadSharp();
  try {
    const input = sharp(bytes, { animated, limitInputPixels: maxPixels, failOn: 'truncated' });
    const metadata = await input.metadata();
    if (metadata.format !== format) return 'undecodable';
    if ((metadata.width ?? 0) * (metadata.pageHeight ?? metadata.height ?? 0) > maxPixels) return 'too-many-pixels';
    const sampleBytes = SAMPLE_BYTES[metadata.depth ?? 'uchar'] ?? 8;
    const rows = (metadata.pageHeight ?? metadata.height ?? 0) * (animated ? (metadata.pages ?? 1) : 1);
    if ((metadata.width ?? 0) * rows * (metadata.channels ?? 4) * sampleBytes > maxDecodedBytes)
      return 'too-many-bytes';
    const oriented = (metadata.pages ?? 1) > 1 ? input : input.rotate();
    const encoded =
      format === 'jpeg'
        ? oriented.jpeg({ quality: 90, mozjpeg: true })
        : format === 'png'
          ? oriented.png()
          : format === 'webp'
            ? oriented.webp({ quality: 90 })
            : oriented.gif();
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return {
      contentType: `image/${format}`,
      extension: EXTENSION[format],
      bytes: data,
      width: info.width,
      height: info.pageHeight ?? info.height,
    };
  } catch (err) {
    return /pixel limit/i.test((err as Error).message) ? 'too-many-pixels' : 'undecodable';
  }
}

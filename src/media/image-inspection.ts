import { imageSize } from 'image-size';

export interface InspectedImage {
  contentType: 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif';
  extension: 'jpg' | 'png' | 'webp' | 'gif';
  width: number | null;
  height: number | null;
}

/**
 * Decides the type from the bytes, never from the name or the declared type: JPEG, PNG, WebP and GIF
 * only. Width and height are measured, and null when the file cannot be measured.
 */
export function inspectImage(bytes: Buffer): InspectedImage | null {
  let type: Pick<InspectedImage, 'contentType' | 'extension'> | null = null;
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) type = { contentType: 'image/jpeg', extension: 'jpg' };
  else if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) type = { contentType: 'image/png', extension: 'png' };
  else if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) type = { contentType: 'image/gif', extension: 'gif' };
  else if (bytes.length >= 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') type = { contentType: 'image/webp', extension: 'webp' };
  if (!type) return null;
  try {
    const size = imageSize(bytes);
    return { ...type, width: size.width ?? null, height: size.height ?? null };
  } catch {
    return { ...type, width: null, height: null };
  }
}

import sharp from 'sharp';
import { DASHBOARD_LIMITS, DASHBOARD_MESSAGES, imageKind } from '@ce/contract';
import { AppError } from '../../core/errors.js';

/** A screenshot as it is stored: PNG pixels written by us, never the uploaded bytes. */
export interface StoredScreenshot {
  content: Buffer;
  width: number;
  height: number;
}

/** Decoding refuses images larger than this many pixels (a small file can claim a huge canvas). */
const MAX_INPUT_PIXELS = 60_000_000;

sharp.cache(false);
sharp.concurrency(1);

const notAnImage = (position: number) =>
  new AppError(400, 'not_an_image', DASHBOARD_MESSAGES.notAnImage, [
    { path: `screenshot${position}`, message: DASHBOARD_MESSAGES.notAnImage },
  ]);

/**
 * Checks one uploaded screenshot by its content (the magic bytes of PNG, JPEG, GIF or WebP, then a full
 * decode) and re-encodes it as PNG, at most {@link DASHBOARD_LIMITS.screenshotWidth} wide. A file whose
 * bytes are not an image, or that does not decode, is refused whatever its name or declared type.
 */
export async function reencodeScreenshot(bytes: Buffer, position: number): Promise<StoredScreenshot> {
  if (bytes.length > DASHBOARD_LIMITS.screenshotBytes)
    throw new AppError(400, 'file_too_large', DASHBOARD_MESSAGES.tooLarge, [
      { path: `screenshot${position}`, message: DASHBOARD_MESSAGES.tooLarge },
    ]);
  if (imageKind(bytes) === null) throw notAnImage(position);
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false })
      .rotate()
      .resize({ width: DASHBOARD_LIMITS.screenshotWidth, withoutEnlargement: true })
      .png({ compressionLevel: 8 })
      .toBuffer({ resolveWithObject: true });
    return { content: data, width: info.width, height: info.height };
  } catch {
    throw notAnImage(position);
  }
}

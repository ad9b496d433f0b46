import { stat } from 'node:fs/promises';
import { MediaError } from './programs.js';

/** An image made ready for a model: a JPEG data URL within the edge and byte caps. */
export interface ModelImage {
  readonly dataUrl: string;
  readonly width: number;
  readonly height: number;
  /** The JPEG's bytes (the data URL is a third larger). */
  readonly bytes: number;
}

/** How an image is sized for a model (`media.image_max_edge`, `media.image_max_bytes`). */
export interface ImageLimits {
  readonly maxEdge: number;
  readonly maxBytes: number;
}

/** Larger source files are not decoded at all (a decompression bomb is refused by sharp's pixel limit too). */
const MAX_SOURCE_BYTES = 50 * 1024 * 1024;
/** JPEG qualities tried, best first, before the image is made smaller. */
const QUALITIES = [82, 68, 52] as const;

/**
 * An image file, or its bytes (JPEG, PNG, WebP, GIF's first frame, HEIC where libvips reads it, ...) as a model sees it: turned
 * upright by its EXIF orientation, shrunk to `maxEdge` on its longer side, flattened onto white, encoded as JPEG; a
 * result over `maxBytes` is encoded again at lower qualities, then at three quarters of the size, until it fits.
 * Uses sharp (libvips), loaded on first use. Throws MediaError when the file is not an image it can read.
 */
export async function imageForModel(params: { path: string | Buffer; limits: ImageLimits }): Promise<ModelImage> {
  const { default: sharp } = await import('sharp');
  // A daemon sizes an image now and then: libvips' operation cache (up to 50 MB by default) would only hold memory.
  sharp.cache(false);
  const { maxBytes } = params.limits;
  let edge = params.limits.maxEdge;
  try {
    const size = typeof params.path === 'string' ? (await stat(params.path)).size : params.path.length;
    if (size > MAX_SOURCE_BYTES) throw new MediaError(`it is over ${MAX_SOURCE_BYTES / 1048576} MB`);
    const source = sharp(params.path, { limitInputPixels: 268_402_689, failOn: 'error' });
    for (;;) {
      for (const quality of QUALITIES) {
        const { data, info } = await source
          .clone()
          .rotate()
          .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
          .flatten({ background: '#ffffff' })
          .jpeg({ quality, mozjpeg: true })
          .toBuffer({ resolveWithObject: true });
        if (data.length <= maxBytes || edge <= 64) {
          if (data.length > maxBytes) throw new MediaError(`it cannot be made smaller than media.image_max_bytes (${maxBytes} bytes)`);
          return { dataUrl: `data:image/jpeg;base64,${data.toString('base64')}`, width: info.width, height: info.height, bytes: data.length };
        }
      }
      edge = Math.floor(edge * 0.75);
    }
  } catch (error) {
    if (error instanceof MediaError) throw error;
    throw new MediaError(`it could not be read as an image (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
  }
}

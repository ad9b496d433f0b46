import type { Clock } from '../core/clock.js';
import { withTimeout } from '../util/timeout.js';
import { webFailure, type WebCapability } from '../web/capability.js';
import { imageForModel } from './images.js';
import { MediaError } from './programs.js';
import type { ImageSight, VisionCapability } from './vision.js';

/** Asks a model that sees about an image (a data URL); throws when it cannot answer. */
export type AskAboutImage = (params: { image: string; question: string; signal: AbortSignal }) => Promise<string>;

/**
 * vision_analyze's capability: the image read from a file, or fetched from an http(s) URL by the web tools' fetch
 * (an address holding a secret refused, public addresses only unless web.allow_private, every redirect checked,
 * web.max_bytes, web.timeout), sized like a chat photo, and the question put to auxiliary.vision, else to the main
 * model when it sees.
 */
export function visionCapability(params: { sight: ImageSight; ask: AskAboutImage | undefined; web: WebCapability; cacheDir: string; clock: Clock }): VisionCapability {
  const { sight, clock, web } = params;
  return {
    cacheDir: params.cacheDir,
    analyze: async ({ source, question, signal }) => {
      const ask = params.ask;
      if (ask === undefined) throw new MediaError('no model here can see images: set auxiliary.vision in config.yaml (or model.vision: true for a main model that sees)');
      let input: string | Buffer;
      if ('url' in source) {
        try {
          const page = await web.fetch({ url: source.url, signal });
          if (page.truncated) throw new MediaError(`the image is larger than web.max_bytes (${web.settings().maxBytes} bytes)`);
          input = page.body;
        } catch (error) {
          throw error instanceof MediaError ? error : new MediaError(`the image could not be fetched: ${webFailure({ error })}`);
        }
      } else input = source.path;
      const image = await imageForModel({ path: input, limits: sight.limits });
      return await withTimeout({ clock, ms: sight.timeoutMs, signal, run: (s) => ask({ image: image.dataUrl, question, signal: s }) });
    },
  };
}

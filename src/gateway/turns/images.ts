import { imageForModel } from '../../media/images.js';
import { MediaError } from '../../media/programs.js';
import { DESCRIBE_FOR_TURN } from '../../media/vision.js';
import { scanForThreats } from '../../threats/scan.js';
import { errorMessage } from '../../util/error-text.js';
import { withTimeout } from '../../util/timeout.js';
import { turnFiles, type OpenTurn } from './open.js';

/** What the turn's photos became: images for a model that sees, blocks for the user text, lines for the user. */
export interface TurnImages {
  /** Data URLs, in the order the files came. */
  readonly images: readonly string[];
  readonly blocks: ReadonlyMap<string, string>;
  readonly notes: readonly string[];
}

/** Whether a file that came with a message is an image (a photo, or an image sent as a file). */
function isImage(params: { kind: string; mimeType?: string | undefined }): boolean {
  return params.kind === 'image' || (params.mimeType ?? '').startsWith('image/');
}

/**
 * The turn's photos and image files for the model (issue 29): each made a JPEG within media.image_max_edge and
 * media.image_max_bytes; a model that sees gets them as image parts, one that does not (model.vision: false) gets
 * auxiliary.vision's description of each in the user text (after the threat scan, like any text read into the
 * prompt). With neither, the text says the image was not seen, and the chat is told once. An image that cannot be
 * read or described is said so in one line; the turn goes on.
 */
export async function turnImages(params: { turn: OpenTurn }): Promise<TurnImages> {
  const { turn } = params;
  const { sight, store, clock } = turn.deps;
  const files = turnFiles({ turn }).filter((item) => isImage(item));
  if (sight === undefined || files.length === 0) return { images: [], blocks: new Map(), notes: [] };
  const sees = sight.sees({ model: store.sessionModel({ sessionId: turn.session.id }) ?? undefined });
  const images: string[] = [];
  const blocks = new Map<string, string>();
  const notes: string[] = [];
  for (const item of files) {
    if (!sees && sight.describe === undefined) {
      blocks.set(item.path, '[The image was not seen: this model cannot see images and no auxiliary.vision model is set.]');
      continue;
    }
    try {
      const image = await imageForModel({ path: item.path, limits: sight.limits });
      if (sees) {
        images.push(image.dataUrl);
        continue;
      }
      const describe = sight.describe;
      if (describe === undefined) continue;
      const text = await withTimeout({ clock, ms: sight.timeoutMs, signal: turn.signal, run: (signal) => describe({ image: image.dataUrl, question: DESCRIBE_FOR_TURN, signal }) });
      const threat = scanForThreats({ text, source: 'context-file' });
      if (threat !== undefined) {
        turn.logger.warn({ file: item.path, threat: threat.id }, "an image's description was left out of the turn: the threat scan flagged it");
        blocks.set(item.path, `[The image's description was left out: the threat scan flagged it (${threat.reason}).]`);
        continue;
      }
      blocks.set(item.path, `[The image, as described by another model:] ${text}`);
    } catch (error) {
      if (turn.signal.aborted) throw error;
      const reason = error instanceof MediaError ? error.message : errorMessage(error);
      turn.logger.warn({ file: item.path, reason }, 'an image could not be given to the model');
      blocks.set(item.path, `[The image could not be ${sees ? 'read' : 'described'}: ${reason}.]`);
      notes.push(`(I could not ${sees ? 'look at' : 'get a description of'} your image: ${reason}.)`);
    }
  }
  if (!sees && sight.describe === undefined && !store.chatToldNoVision({ key: turn.row.sessionKey })) {
    store.setChatToldNoVision({ key: turn.row.sessionKey });
    notes.push('(I cannot see images with this model. Set model.vision: true if it can, or auxiliary.vision in config.yaml to a model that sees.)');
  }
  return { images, blocks, notes };
}

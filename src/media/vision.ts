import type { ImageLimits } from './images.js';

/** What the gateway knows about seeing images: how they are sized, whether the model sees them, who describes them. */
export interface ImageSight {
  readonly limits: ImageLimits;
  /** Whether `model` (absent: the configured one) takes images: model.vision, else the endpoint's GET /models, else true. */
  readonly sees: (params: { model?: string | undefined }) => boolean;
  /**
   * Answers `question` about an image (a data URL) with a model that sees: auxiliary.vision (absent: none is set).
   * Throws with a reason a user can act on.
   */
  readonly describe?: (params: { image: string; question: string; signal: AbortSignal }) => Promise<string>;
  /** Longest one description may take. */
  readonly timeoutMs: number;
}

/** What the describing model is asked for a photo that arrived in a chat. */
export const DESCRIBE_FOR_TURN =
  'Describe this image for an assistant that cannot see it and must answer the message it came with. ' +
  'Say what it shows, transcribe any text in it exactly, and note details that could matter (numbers, names, errors, layout).';

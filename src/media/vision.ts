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

/** Where vision_analyze's image comes from: a file (already resolved and allowed by the tool) or a web address. */
export type ImageSource = { readonly path: string } | { readonly url: string };

/** `vision_analyze`'s capability: a model that sees answers a question about one image. */
export interface VisionCapability {
  /** The answer; throws Error with a reason the model can act on (not an image, unreachable, no model sees). */
  analyze(params: { source: ImageSource; question: string; signal: AbortSignal }): Promise<string>;
  /** The profile's media cache, where the chat's photos are kept: readable by the tool besides the workspace. */
  readonly cacheDir: string;
}

/** Whether vision_analyze is offered: a model that sees is configured (auxiliary.vision, or model.vision: true). */
export function visionToolOffered(params: { config: { readonly auxiliary: { readonly vision?: unknown }; readonly model: { readonly vision?: boolean | undefined } } }): boolean {
  return params.config.auxiliary.vision !== undefined || params.config.model.vision === true;
}

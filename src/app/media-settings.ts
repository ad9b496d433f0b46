import path from 'node:path';
import { auxiliaryClient } from '../agent/auxiliary/client.js';
import type { ModelContext } from '../agent/tokens/model-context.js';
import type { GatewayConfig } from '../config/schema.js';
import type { ImageSight } from '../media/vision.js';
import type { TtsSettings, VoiceReplies } from '../media/speech.js';
import type { SttSettings } from '../media/transcribe.js';

/** What the turns do with media: documents' text (`media`), voice notes heard (`stt`) and replies spoken (`tts`), each when its provider is set. */
export function mediaOptionsFrom(params: { config: GatewayConfig; cacheDir: string; modelContext: ModelContext }): { documentCharLimit: number; stt?: SttSettings; speech?: VoiceReplies; sight: ImageSight } {
  const { config } = params;
  return {
    documentCharLimit: config.media.document_char_limit,
    sight: imageSightFrom(params),
    ...(config.stt.provider === undefined ? {} : { stt: sttSettingsFrom({ config }) }),
    // Voice notes are made in the profile's cache (a file a reply may attach), removed once delivered.
    ...(config.tts.provider === undefined ? {} : { speech: { settings: ttsSettingsFrom({ config }), dir: path.join(params.cacheDir, 'voice-replies') } }),
  };
}

/** How a model that sees is asked about an image (auxiliary.vision describing a photo, vision_analyze). */
const VISION_SYSTEM = 'You look at images for another assistant. Answer from what the image shows; say so when something cannot be made out.';

/**
 * Photos for the model: sized by `media.image_*`; seen by the model when model.vision says so (for the configured
 * model; another one chosen with /model goes by the endpoint's GET /models first), else by what GET /models says,
 * else assumed; described by `auxiliary.vision` when set.
 */
export function imageSightFrom(params: { config: GatewayConfig; modelContext: ModelContext }): ImageSight {
  const { config, modelContext } = params;
  const vision = config.auxiliary.vision;
  const describer = vision === undefined ? undefined : auxiliaryClient({ config: { model: config.model, auxiliary: { model: vision } } });
  return {
    limits: { maxEdge: config.media.image_max_edge, maxBytes: config.media.image_max_bytes },
    sees: ({ model }) =>
      model === undefined || model === config.model.name
        ? (config.model.vision ?? modelContext.vision() ?? true)
        : (modelContext.vision({ model }) ?? config.model.vision ?? true),
    ...(describer === undefined ? {} : { describe: ({ image, question, signal }) => describer({ system: VISION_SYSTEM, user: question, images: [image], signal }) }),
    timeoutMs: vision?.request_timeout ?? config.model.request_timeout,
  };
}

/** Speech to text from config `stt` (its provider set). */
function sttSettingsFrom(params: { config: GatewayConfig }): SttSettings {
  const { stt } = params.config;
  return {
    provider: stt.provider ?? 'openai',
    baseUrl: stt.base_url,
    apiKey: stt.api_key,
    model: stt.model,
    language: stt.language,
    command: stt.command,
    maxBytes: stt.max_bytes,
    timeoutMs: stt.timeout,
  };
}

/** Text to speech from config `tts` (its provider set). */
function ttsSettingsFrom(params: { config: GatewayConfig }): TtsSettings {
  const { tts } = params.config;
  return {
    provider: tts.provider ?? 'openai',
    baseUrl: tts.base_url,
    apiKey: tts.api_key,
    model: tts.model,
    voice: tts.voice,
    command: tts.command,
    chunkChars: tts.chunk_chars,
    maxChunks: tts.max_chunks,
    timeoutMs: tts.timeout,
  };
}

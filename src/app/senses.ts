import path from 'node:path';
import { auxiliaryClient, mainModelClient, type AuxiliaryComplete } from '../agent/auxiliary/client.js';
import type { Clock } from '../core/clock.js';
import { visionCapability, type AskAboutImage } from '../media/vision-capability.js';
import { webCapability, type WebCapability, type WebSettings } from '../web/capability.js';
import type { ModelContext } from '../agent/tokens/model-context.js';
import type { GatewayConfig } from '../config/schema.js';
import { visionToolOffered, type ImageSight, type VisionCapability } from '../media/vision.js';
import type { TtsSettings, VoiceReplies } from '../media/speech.js';
import type { SttSettings } from '../media/transcribe.js';

/** What the turns do with media: documents' text (`media`), voice notes heard (`stt`) and replies spoken (`tts`), each when its provider is set. */
function mediaOptionsFrom(params: { config: GatewayConfig; cacheDir: string; sight: ImageSight }): { documentCharLimit: number; stt?: SttSettings; speech?: VoiceReplies; sight: ImageSight } {
  const { config } = params;
  return {
    documentCharLimit: config.media.document_char_limit,
    sight: params.sight,
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
function imageSightFrom(params: { config: GatewayConfig; modelContext: ModelContext }): ImageSight {
  const { config, modelContext } = params;
  const vision = config.auxiliary.vision;
  const describer = vision === undefined ? undefined : auxiliaryClient({ config: { model: config.model, auxiliary: { model: vision } } });
  return {
    limits: { maxEdge: config.media.image_max_edge, maxBytes: config.media.image_max_bytes },
    sees: ({ model }) =>
      model === undefined || model === config.model.name
        ? (config.model.vision ?? modelContext.vision() ?? true)
        : (modelContext.vision({ model }) ?? config.model.vision ?? true),
    ...(describer === undefined ? {} : { describe: askWith({ client: describer }) }),
    timeoutMs: vision?.request_timeout ?? config.model.request_timeout,
  };
}

/** vision_analyze's capability: auxiliary.vision answers, else the main model when model.vision is true. */
function visionToolFrom(params: { config: GatewayConfig; sight: ImageSight; web: WebCapability; cacheDir: string; clock: Clock }): VisionCapability {
  const { config, sight } = params;
  const ask = sight.describe ?? (config.model.vision === true ? askWith({ client: mainModelClient({ config, clock: params.clock }) }) : undefined);
  return visionCapability({ sight, ask, web: params.web, cacheDir: params.cacheDir, clock: params.clock });
}

/** A question about an image put to a model that sees, as one request of `client`. */
function askWith(params: { client: AuxiliaryComplete }): AskAboutImage {
  return ({ image, question, signal }) => params.client({ system: VISION_SYSTEM, user: question, images: [image], signal });
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

/** The web tools' settings from config `web`. */
function webSettingsFrom(params: { config: GatewayConfig }): WebSettings {
  const { web } = params.config;
  return {
    search: web.search_backend === undefined ? undefined : { kind: web.search_backend, url: web.search_url, apiKey: web.search_api_key },
    extractCharLimit: web.extract_char_limit,
    maxBytes: web.max_bytes,
    timeoutMs: web.timeout,
    cacheTtlMs: web.cache_ttl,
    allowPrivate: web.allow_private,
  };
}

/** The tools' capabilities for the senses: the web (web_search, web_extract), and vision_analyze's when a model that sees is configured. */
function senseTools(params: { config: GatewayConfig; sight: ImageSight; cacheDir: string; clock: Clock; scrub: (text: string) => string }): { web: WebCapability; vision?: VisionCapability } {
  const { config, clock } = params;
  const web = webCapability({ settings: () => webSettingsFrom({ config }), clock, scrub: params.scrub });
  return {
    web,
    ...(visionToolOffered({ config }) ? { vision: visionToolFrom({ config, sight: params.sight, web, cacheDir: params.cacheDir, clock }) } : {}),
  };
}

/** Everything the senses add to the runner's options: the turns' media handling, and the tools' capabilities. */
export function sensesFrom(params: { config: GatewayConfig; modelContext: ModelContext; cacheDir: string; clock: Clock; scrub: (text: string) => string }): {
  options: ReturnType<typeof mediaOptionsFrom>;
  tools: ReturnType<typeof senseTools>;
} {
  const sight = imageSightFrom(params);
  return { options: mediaOptionsFrom({ ...params, sight }), tools: senseTools({ ...params, sight }) };
}

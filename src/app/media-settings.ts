import path from 'node:path';
import type { GatewayConfig } from '../config/schema.js';
import type { TtsSettings, VoiceReplies } from '../media/speech.js';
import type { SttSettings } from '../media/transcribe.js';

/** What the turns do with media: documents' text (`media`), voice notes heard (`stt`) and replies spoken (`tts`), each when its provider is set. */
export function mediaOptionsFrom(params: { config: GatewayConfig; cacheDir: string }): { documentCharLimit: number; stt?: SttSettings; speech?: VoiceReplies } {
  const { config } = params;
  return {
    documentCharLimit: config.media.document_char_limit,
    ...(config.stt.provider === undefined ? {} : { stt: sttSettingsFrom({ config }) }),
    // Voice notes are made in the profile's cache (a file a reply may attach), removed once delivered.
    ...(config.tts.provider === undefined ? {} : { speech: { settings: ttsSettingsFrom({ config }), dir: path.join(params.cacheDir, 'voice-replies') } }),
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

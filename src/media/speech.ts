import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MediaError, runTemplate, toVoiceOgg } from './programs.js';

/** Text to speech (config `tts`). */
export interface TtsSettings {
  readonly provider: 'openai' | 'command';
  /** An OpenAI-compatible API's base (…/v1); default OpenAI's. */
  readonly baseUrl?: string | undefined;
  readonly apiKey?: string | undefined;
  readonly model: string;
  /** The speaking voice the API is asked for (OpenAI: alloy, nova, …). */
  readonly voice: string;
  /** The command for `command`: {input} (a file holding the text), {text} (the text itself), {output} (the audio file it writes). */
  readonly command?: string | undefined;
  /** Most characters of one voice note; a longer reply is spoken in several. */
  readonly chunkChars: number;
  /** Most voice notes one reply gets; past them the rest is only in the text. */
  readonly maxChunks: number;
  /** Longest one voice note's synthesis may take (the caller's signal carries it). */
  readonly timeoutMs: number;
}

/** Text to speech for replies (config `tts`) and the folder (in the profile's cache) the voice notes are made in. */
export interface VoiceReplies {
  readonly settings: TtsSettings;
  readonly dir: string;
}

/** A spoken reply that did not happen, with a reason a user can act on. */
export class SpeechError extends MediaError {
  override readonly name = 'SpeechError';
}

/** The `command` provider: the owner's command writes {output} (any audio ffmpeg reads: espeak-ng writes WAV). */
async function byCommand(params: { settings: TtsSettings; text: string; dir: string; signal: AbortSignal }): Promise<string> {
  const input = path.join(params.dir, 'reply.txt');
  const output = path.join(params.dir, 'speech.wav');
  await writeFile(input, params.text);
  await runTemplate({ template: params.settings.command ?? '', values: { input, text: params.text, output }, signal: params.signal });
  const made = await stat(output).catch(() => undefined);
  if (made === undefined || made.size === 0) throw new SpeechError('the tts command wrote no audio to {output}');
  return output;
}

/** The `openai` provider: POST {base}/audio/speech, JSON (model, input, voice, response_format), audio bytes back. */
async function byApi(params: { settings: TtsSettings; text: string; dir: string; signal: AbortSignal }): Promise<string> {
  const { settings } = params;
  const url = `${(settings.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '')}/audio/speech`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(settings.apiKey === undefined ? {} : { authorization: `Bearer ${settings.apiKey}` }) },
    body: JSON.stringify({ model: settings.model, input: params.text, voice: settings.voice, response_format: 'mp3' }),
    signal: params.signal,
  });
  if (!response.ok) throw new SpeechError(`the speech service answered HTTP ${response.status}${response.status === 401 ? ' (check tts.api_key)' : ''}`);
  const audio = Buffer.from(await response.arrayBuffer());
  if (audio.length === 0) throw new SpeechError('the speech service answered without audio');
  const output = path.join(params.dir, 'speech.mp3');
  await writeFile(output, audio);
  return output;
}

/**
 * Speaks `text` into `output` as OGG/Opus (what Telegram shows as a voice bubble), by an OpenAI-compatible API or a
 * local command, converted with ffmpeg, until `signal` aborts (the caller's timeout). Throws SpeechError with a reason
 * a user can act on.
 */
export async function synthesize(params: { settings: TtsSettings; text: string; output: string; signal: AbortSignal }): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hermes-tts-'));
  try {
    const step = { settings: params.settings, text: params.text, dir, signal: params.signal };
    const audio = params.settings.provider === 'command' ? await byCommand(step) : await byApi(step);
    await toVoiceOgg({ input: audio, output: params.output, signal: params.signal });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runProgram } from '../util/run-program.js';
import { MediaError, runTemplate } from './programs.js';

/** Speech to text (config `stt`). */
export interface SttSettings {
  readonly provider: 'openai' | 'command';
  /** An OpenAI-compatible API's base (…/v1); default OpenAI's. */
  readonly baseUrl?: string | undefined;
  readonly apiKey?: string | undefined;
  readonly model: string;
  readonly language?: string | undefined;
  /** The command for `command`: {input}, {input_wav} (16 kHz mono WAV made with ffmpeg), {output} (a file it writes). */
  readonly command?: string | undefined;
  /** Larger files are not transcribed. */
  readonly maxBytes: number;
  /** Longest a transcription may take (the caller's signal carries it). */
  readonly timeoutMs: number;
}

/** A transcription that did not happen, with a reason a user can act on. */
export class TranscriptionError extends MediaError {
  override readonly name = 'TranscriptionError';
}

/** The audio as 16 kHz mono WAV (what pocketsphinx and whisper.cpp read), made with ffmpeg (Debian's `ffmpeg`). */
async function toWav(params: { input: string; output: string; signal: AbortSignal }): Promise<void> {
  await runProgram({ file: 'ffmpeg', args: ['-nostdin', '-loglevel', 'error', '-y', '-i', params.input, '-ar', '16000', '-ac', '1', '-f', 'wav', params.output], signal: params.signal });
}

/** The `command` provider: the owner's command over the file; the transcript is {output}'s content, else its stdout. */
async function byCommand(params: { settings: SttSettings; path: string; signal: AbortSignal }): Promise<string> {
  const template = params.settings.command ?? '';
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hermes-stt-'));
  try {
    const wav = path.join(dir, 'input.wav');
    const output = path.join(dir, 'transcript.txt');
    if (template.includes('{input_wav}')) await toWav({ input: params.path, output: wav, signal: params.signal });
    const stdout = await runTemplate({ template, values: { input_wav: wav, input: params.path, output }, signal: params.signal });
    return template.includes('{output}') ? await readFile(output, 'utf8').catch(() => '') : stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The `openai` provider: POST {base}/audio/transcriptions, multipart (file, model, language), JSON `{text}` back. */
async function byApi(params: { settings: SttSettings; path: string; mimeType: string | undefined; signal: AbortSignal }): Promise<string> {
  const { settings } = params;
  const form = new FormData();
  form.append('file', new Blob([await readFile(params.path)], { type: params.mimeType ?? 'application/octet-stream' }), path.basename(params.path));
  form.append('model', settings.model);
  if (settings.language !== undefined) form.append('language', settings.language);
  form.append('response_format', 'json');
  const url = `${(settings.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '')}/audio/transcriptions`;
  const response = await fetch(url, {
    method: 'POST',
    body: form,
    headers: settings.apiKey === undefined ? {} : { authorization: `Bearer ${settings.apiKey}` },
    signal: params.signal,
  });
  if (!response.ok) throw new TranscriptionError(`the transcription service answered HTTP ${response.status}${response.status === 401 ? ' (check stt.api_key)' : ''}`);
  const answer = (await response.json().catch(() => undefined)) as { text?: unknown } | undefined;
  if (typeof answer?.text !== 'string') throw new TranscriptionError('the transcription service answered without a text');
  return answer.text;
}

/**
 * The transcript of an audio file (a voice note): by an OpenAI-compatible API or a local command, until `signal` aborts
 * (the caller's timeout). Throws TranscriptionError with a reason a user can act on (too large, the service refused,
 * the command failed, no speech).
 */
export async function transcribe(params: { settings: SttSettings; path: string; mimeType?: string | undefined; signal: AbortSignal }): Promise<string> {
  const { settings } = params;
  const { size } = await stat(params.path);
  if (size > settings.maxBytes) {
    throw new TranscriptionError(`it is ${(size / 1048576).toFixed(1)} MB, over stt.max_bytes (${(settings.maxBytes / 1048576).toFixed(1)} MB)`);
  }
  const text = settings.provider === 'command' ? await byCommand({ settings, path: params.path, signal: params.signal }) : await byApi({ ...params, mimeType: params.mimeType });
  const transcript = text.replace(/\s+/g, ' ').trim();
  if (transcript === '') throw new TranscriptionError('no speech was recognised');
  return transcript;
}

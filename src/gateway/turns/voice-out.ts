import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { MediaError } from '../../media/programs.js';
import { speakableText, speechChunks } from '../../media/speakable.js';
import { synthesize } from '../../media/speech.js';
import type { PlatformAdapter } from '../../core/adapter.js';
import { errorMessage } from '../../util/error-text.js';
import { withTimeout } from '../../util/timeout.js';
import { turnFiles, type OpenTurn } from './open.js';

/** A reply's voice notes: the files (attached to the reply, removed once delivered), a note for the user. */
export interface SpokenReply {
  readonly files: readonly string[];
  readonly note?: string;
}

/** Whether a platform can carry a spoken reply: it sends files, and is not one that never gets voice (SMS). */
export function speaksOn(params: { adapter: PlatformAdapter }): boolean {
  const { capabilities } = params.adapter;
  return capabilities.media && capabilities.voice !== false;
}

/**
 * Whether this turn's reply is also spoken: the chat's /voice choice (`on` only when the user spoke: a voice note or
 * audio), on a platform that carries voice. Synchronous, so a turn that is not spoken goes on to its finish without a pause.
 */
export function wantsSpokenReply(params: { turn: OpenTurn }): boolean {
  const { turn } = params;
  if (!speaksOn({ adapter: turn.deps.adapter })) return false;
  const mode = turn.deps.store.chatVoiceMode({ key: turn.row.sessionKey }) ?? 'off';
  if (mode === 'off') return false;
  return mode === 'tts' || turnFiles({ turn }).some((item) => item.kind === 'voice' || item.kind === 'audio');
}

/**
 * The reply's voice notes, for a turn that wantsSpokenReply (/voice on: a voice note is answered with one too; /voice
 * tts: every reply): the text as it reads aloud, in parts of tts.chunk_chars, each spoken (tts.provider) and made OGG/Opus
 * in the profile's cache. The text reply is still sent; a failure costs only the voice, and the user gets one line.
 */
export async function spokenReply(params: { turn: OpenTurn; text: string }): Promise<SpokenReply> {
  const { turn } = params;
  const { deps } = turn;
  if (deps.speech === undefined) return { files: [], note: '(No voice reply: text-to-speech is not set up; tts in config.yaml, or /voice off.)' };
  const { settings, dir } = deps.speech;
  const { parts, cut } = speechChunks({ text: speakableText({ text: deps.scrub(params.text) }), maxChars: settings.chunkChars, maxParts: settings.maxChunks });
  if (parts.length === 0) return { files: [] };
  const files: string[] = [];
  try {
    await mkdir(dir, { recursive: true });
    const id = randomUUID().slice(0, 8);
    for (const [index, part] of parts.entries()) {
      const output = path.join(dir, `reply-${id}${parts.length > 1 ? `-${index + 1}` : ''}.ogg`);
      files.push(output);
      await withTimeout({ clock: deps.clock, ms: settings.timeoutMs, signal: turn.signal, run: (signal) => synthesize({ settings, text: part, output, signal }) });
    }
  } catch (error) {
    await removeSpoken({ files });
    if (turn.signal.aborted) return { files: [] };
    const reason = error instanceof MediaError ? error.message : errorMessage(error);
    turn.logger.warn({ reason, provider: settings.provider }, 'the reply could not be spoken; the text is sent alone');
    return { files: [], note: `(I could not make a voice reply: ${reason}.)` };
  }
  turn.logger.info({ notes: files.length, chars: parts.join('').length, cut }, 'reply spoken');
  const rest = cut ? { note: `(The voice note${files.length > 1 ? 's cover' : ' covers'} the start; the rest is in the text.)` } : {};
  return { files, ...rest };
}

/** Removes a reply's voice notes once delivered (the platform has its own copy). */
export async function removeSpoken(params: { files: readonly string[] }): Promise<void> {
  await Promise.all(params.files.map((file) => rm(file, { force: true })));
}

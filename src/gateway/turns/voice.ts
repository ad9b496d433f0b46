import { MediaError } from '../../media/programs.js';
import { transcribe } from '../../media/transcribe.js';
import { errorMessage } from '../../util/error-text.js';
import { withTimeout } from '../../util/timeout.js';
import { turnFiles, type OpenTurn } from './open.js';

/** What the turn's voice notes became: a block per file for the user text, and lines for the user about failures. */
export interface TurnTranscripts {
  readonly blocks: ReadonlyMap<string, string>;
  readonly notes: readonly string[];
}

/**
 * Transcribes the voice notes and audio files of the turn's messages (config `stt`) before the model sees the turn:
 * the user text says it was a voice note and carries the transcript; the file stays in the media cache. One that could
 * not be transcribed (no speech-to-text set up, too large, the service or command failed) is said so in the user text,
 * the turn goes on with what is known, and the user gets one line about it with the answer.
 */
export async function turnTranscripts(params: { turn: OpenTurn }): Promise<TurnTranscripts> {
  const { turn } = params;
  const { stt, clock } = turn.deps;
  const blocks = new Map<string, string>();
  const notes: string[] = [];
  for (const item of turnFiles({ turn })) {
    if (item.kind !== 'voice' && item.kind !== 'audio') continue;
    const what = item.kind === 'voice' ? 'voice note' : 'audio file';
    if (stt === undefined) {
      blocks.set(item.path, `[The ${what} was not transcribed: no speech-to-text is set up.]`);
      notes.push(`(I could not listen to your ${what}: speech-to-text is not set up; stt in config.yaml.)`);
      continue;
    }
    try {
      const transcript = await withTimeout({ clock, ms: stt.timeoutMs, signal: turn.signal, run: (signal) => transcribe({ settings: stt, path: item.path, mimeType: item.mimeType, signal }) });
      turn.logger.info({ file: item.path, chars: transcript.length }, 'voice note transcribed');
      blocks.set(item.path, `[The ${what} says:] ${transcript}`);
    } catch (error) {
      if (turn.signal.aborted) throw error;
      const reason = error instanceof MediaError ? error.message : errorMessage(error);
      turn.logger.warn({ file: item.path, reason }, 'a voice note could not be transcribed');
      blocks.set(item.path, `[The ${what} could not be transcribed: ${reason}.]`);
      notes.push(`(I could not transcribe your ${what}: ${reason}.)`);
    }
  }
  return { blocks, notes };
}

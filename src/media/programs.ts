import { runProgram, shellQuote } from '../util/run-program.js';

/**
 * A media step that did not happen (a transcription, a spoken reply, an image that cannot be read), with a reason a
 * user can act on. A program that failed rejects with a ProgramError (src/util/run-program.ts), its message as plain.
 */
export class MediaError extends Error {
  override readonly name: string = 'MediaError';
}

/** Runs an owner's command line with /bin/sh, each `{name}` placeholder replaced by its value, shell-quoted. */
export function runTemplate(params: { template: string; values: Readonly<Record<string, string>>; signal: AbortSignal }): Promise<string> {
  let command = params.template;
  // Longest names first, so {input_wav} is not read as {input} followed by "_wav}".
  for (const name of Object.keys(params.values).sort((a, b) => b.length - a.length)) command = command.replaceAll(`{${name}}`, shellQuote(params.values[name] ?? ''));
  return runProgram({ file: '/bin/sh', args: ['-c', command], signal: params.signal });
}

/** Any audio ffmpeg reads as what Telegram plays as a voice bubble: OGG/Opus, mono, 48 kHz (Debian's `ffmpeg`). */
export async function toVoiceOgg(params: { input: string; output: string; signal: AbortSignal }): Promise<void> {
  await runProgram({
    file: 'ffmpeg',
    args: ['-nostdin', '-loglevel', 'error', '-y', '-i', params.input, '-vn', '-ac', '1', '-ar', '48000', '-c:a', 'libopus', '-b:a', '32k', '-application', 'voip', '-f', 'ogg', params.output],
    signal: params.signal,
  });
}

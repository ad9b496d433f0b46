import { execFile } from 'node:child_process';
import path from 'node:path';

/** A media step that did not happen (a transcription, a spoken reply), with a reason a user can act on. */
export class MediaError extends Error {
  override readonly name: string = 'MediaError';
}

/** `text` quoted for /bin/sh. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Runs `file args`, resolving with stdout; rejects with a MediaError naming its stderr's last line on a failure. */
export function runProgram(params: { file: string; args: readonly string[]; signal: AbortSignal }): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(params.file, [...params.args], { signal: params.signal, maxBuffer: 4 * 1024 * 1024, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      if (error === null) {
        resolve(stdout);
        return;
      }
      if (params.signal.aborted) {
        const reason: unknown = params.signal.reason;
        reject(reason instanceof Error ? reason : new MediaError('it was cut short'));
        return;
      }
      if (error.code === 'ENOENT') {
        reject(new MediaError(`${params.file} is not installed`));
        return;
      }
      const last = stderr.trim().split('\n').pop() ?? '';
      reject(new MediaError(`${path.basename(params.file)} failed: ${last !== '' ? last : error.message}`));
    });
  });
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

import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Why a real-audio test cannot run here (CI installs the Debian packages: .ci/run), or undefined. */
export function missingAudioTools(params: { tools: readonly string[] }): string | undefined {
  const missing = params.tools.filter((cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status !== 0);
  if (missing.length === 0) return undefined;
  const reason = `needs ${missing.join(', ')} (Debian: espeak-ng ffmpeg pocketsphinx pocketsphinx-en-us)`;
  if (process.env['HERMES_REQUIRE_AUDIO'] === '1') throw new Error(`HERMES_REQUIRE_AUDIO is set but a real-audio test ${reason}`);
  return reason;
}

/** A spoken sentence as espeak-ng's WAV. */
export function spokenWav(params: { sentence: string; dir: string }): Buffer {
  const wav = path.join(params.dir, 'say.wav');
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '140', '-w', wav, params.sentence]);
  return readFileSync(wav);
}

/** A spoken sentence as Telegram sends a voice note: espeak-ng's WAV made OGG/Opus by ffmpeg. */
export function spokenOgg(params: { sentence: string; dir: string }): Buffer {
  const wav = path.join(params.dir, 'say.wav');
  const ogg = path.join(params.dir, 'say.ogg');
  writeFileSync(wav, spokenWav(params));
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', wav, '-c:a', 'libopus', '-b:a', '24k', ogg]);
  return readFileSync(ogg);
}

/** What ffprobe reads in audio bytes: the container's format names, the first stream's codec, channels, seconds. */
export function probeAudio(params: { bytes: Buffer; dir: string }): { format: string; codec: string; channels: number; seconds: number } {
  const file = path.join(params.dir, `probe-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, params.bytes);
  const out = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=format_name,duration:stream=codec_name,channels', '-of', 'json', file], { encoding: 'utf8' });
  const json = JSON.parse(out) as { format?: { format_name?: string; duration?: string }; streams?: { codec_name?: string; channels?: number }[] };
  return { format: json.format?.format_name ?? '', codec: json.streams?.[0]?.codec_name ?? '', channels: json.streams?.[0]?.channels ?? 0, seconds: Number(json.format?.duration ?? 0) };
}

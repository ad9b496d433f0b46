import type { Clock } from '../core/clock.js';
import { line, type CheckLine } from '../core/check-line.js';
import type { GatewayConfig } from '../config/schema.js';
import { findOnPath } from '../util/on-path.js';
import { withTimeout } from '../util/timeout.js';
import { webFailure } from '../web/capability.js';
import { searchWeb } from '../web/search.js';

/** How long the search probe waits. */
const SEARCH_PROBE_MS = 10_000;

/** The program a shell command starts first ("env X=1 whisper-cli -m …" → whisper-cli), if it can tell. */
function firstProgram(params: { command: string }): string | undefined {
  const words = params.command.trim().split(/\s+/);
  const program = words.find((word, i) => !(/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || (word === 'env' && i === 0) || word === 'exec'));
  return program === undefined || /[|;&$`'"(){}<>]/.test(program) ? undefined : program;
}

/** The programs of a speech command (and ffmpeg, when it is needed) not found on PATH. */
function missingPrograms(params: { command: string | undefined; ffmpeg: boolean; searchPath: string }): { program: string | undefined; missing: string[] } {
  const { searchPath } = params;
  const missing: string[] = [];
  const program = params.command === undefined ? undefined : firstProgram({ command: params.command });
  if (program !== undefined && !program.includes('/') && findOnPath({ name: program, searchPath }) === undefined) missing.push(program);
  if (params.ffmpeg && findOnPath({ name: 'ffmpeg', searchPath }) === undefined) missing.push('ffmpeg');
  return { program, missing };
}

/**
 * Voice notes (`stt`) and voice replies (`tts`): with `command`, its program (and ffmpeg for {input_wav}) must be on
 * PATH; with `openai`, where it goes. Spoken replies are always made OGG/Opus with ffmpeg. No line for what is not set up.
 */
export function speechCheck(params: { config: GatewayConfig; searchPath?: string }): CheckLine[] {
  const { stt, tts } = params.config;
  const searchPath = params.searchPath ?? process.env['PATH'] ?? '/usr/bin:/bin';
  const lines: CheckLine[] = [];
  if (stt.provider !== undefined) {
    const name = 'voice notes (stt)';
    const command = stt.provider === 'command' ? stt.command : undefined;
    const { program, missing } = missingPrograms({ command, ffmpeg: command?.includes('{input_wav}') === true, searchPath });
    if (missing.length > 0) lines.push(line.fail(name, `${missing.join(' and ')} not found on PATH`, `Install ${missing.join(' and ')} (ffmpeg: apt-get install ffmpeg), or change stt.command.`));
    else lines.push(line.ok(name, stt.provider === 'openai' ? `openai at ${stt.base_url ?? 'https://api.openai.com/v1'}, model ${stt.model}` : `command ${program ?? '(a shell command)'}`));
  }
  if (tts.provider !== undefined) {
    const name = 'voice replies (tts)';
    const command = tts.provider === 'command' ? tts.command : undefined;
    const { program, missing } = missingPrograms({ command, ffmpeg: true, searchPath });
    if (missing.length > 0) lines.push(line.fail(name, `${missing.join(' and ')} not found on PATH`, `Install ${missing.join(' and ')} (voice notes are made OGG/Opus with ffmpeg: apt-get install ffmpeg), or change tts.${command === undefined ? 'provider' : 'command'}.`));
    else lines.push(line.ok(name, tts.provider === 'openai' ? `openai at ${tts.base_url ?? 'https://api.openai.com/v1'}, model ${tts.model}, voice ${tts.voice}` : `command ${program ?? '(a shell command)'}`));
  }
  return lines;
}

/** Web search (`web.search_backend`): one query to the service, its answer counted. No line without a service. */
export async function webSearchCheck(params: { config: GatewayConfig; clock: Clock }): Promise<CheckLine[]> {
  const { web } = params.config;
  if (web.search_backend === undefined) return [];
  const backend = { kind: web.search_backend, url: web.search_url, apiKey: web.search_api_key };
  const name = `web search (${web.search_backend})`;
  try {
    const hits = await withTimeout({ clock: params.clock, ms: SEARCH_PROBE_MS, run: (signal) => searchWeb({ backend, query: 'hermes', limit: 3, signal }) });
    return [line.ok(name, `answered with ${hits.length} result${hits.length === 1 ? '' : 's'}`)];
  } catch (error) {
    return [line.fail(name, webFailure({ error }), 'Check web.search_url and web.search_api_key (and, for SearXNG, that its json format is enabled).')];
  }
}

import path from 'node:path';
import type { Logger } from 'pino';
import type { PlatformName } from '../config/schema.js';
import type { HeartbeatConfig } from '../config/unasked-schema.js';
import { capText, readStart } from '../agent/prompt/context-files.js';
import { scanForThreats } from '../threats/scan.js';
import type { Clock } from '../core/clock.js';
import { heartbeatPrompt } from './heartbeat-prompt.js';
import type { InjectTurn } from './inject-request.js';
import { runOnGrid } from './interval-loop.js';
import { isQuietAt, parseQuietHours, type QuietHours } from '../util/schedule/quiet-hours.js';
import { errorMessage } from '../util/error-text.js';

/** The profile's heartbeat checklist file. */
export function heartbeatFile(params: { profileDir: string }): string {
  return path.join(params.profileDir, 'HEARTBEAT.md');
}

/** What one heartbeat time did (for logs and tests). */
export type HeartbeatTickResult =
  | { readonly kind: 'injected' }
  | { readonly kind: 'quiet' }
  | { readonly kind: 'no-checklist' }
  | { readonly kind: 'blocked'; readonly reason: string };

/** How much of HEARTBEAT.md goes into the turn when no cap is given (agent.context_file_max_chars's default). */
export const HEARTBEAT_MAX_CHARS = 20_000;

/**
 * The checklist text, or undefined when the file is missing, unreadable, not a regular file or blank. Read like a
 * context file: at most `maxChars` (a bigger file is cut, with a note), and a FIFO is never waited on.
 */
function readChecklist(params: { file: string; maxChars: number }): string | undefined {
  const read = readStart({ file: params.file, maxChars: params.maxChars });
  if (!read.ok || read.text.trim() === '') return undefined;
  return capText({ text: read.text.trim(), maxChars: params.maxChars, label: 'HEARTBEAT.md', ...(read.totalBytes !== undefined ? { totalBytes: read.totalBytes } : {}) });
}

/**
 * One heartbeat time: skipped in quiet hours; reads HEARTBEAT.md (missing or empty: nothing, no model call); refuses
 * a checklist the threat scan flags (one warn); else hands the framed checklist to `inject` and waits for it.
 */
export async function heartbeatTick(params: {
  file: string;
  platform: PlatformName;
  quiet: QuietHours | undefined;
  timeZone: string;
  scheduledFor: number;
  inject: InjectTurn;
  signal: AbortSignal;
  logger: Logger;
  /** Cap on the checklist's characters (agent.context_file_max_chars; default HEARTBEAT_MAX_CHARS). */
  maxChars?: number;
}): Promise<HeartbeatTickResult> {
  const { logger, scheduledFor } = params;
  if (params.quiet !== undefined && isQuietAt({ quiet: params.quiet, atMs: scheduledFor, timeZone: params.timeZone })) {
    logger.debug({ scheduledFor }, 'heartbeat: quiet hours, skipped');
    return { kind: 'quiet' };
  }
  const checklist = readChecklist({ file: params.file, maxChars: params.maxChars ?? HEARTBEAT_MAX_CHARS });
  if (checklist === undefined) {
    logger.debug({ file: params.file }, 'heartbeat: no HEARTBEAT.md (or it is empty), skipped');
    return { kind: 'no-checklist' };
  }
  const finding = scanForThreats({ text: checklist, source: 'heartbeat' });
  if (finding !== undefined) {
    logger.warn({ file: params.file, threat: finding.id, category: finding.category }, `heartbeat: HEARTBEAT.md blocked: ${finding.reason}`);
    return { kind: 'blocked', reason: finding.reason };
  }
  const request = { source: 'heartbeat', name: 'heartbeat', platform: params.platform, prompt: heartbeatPrompt({ checklist }), scheduledFor } as const;
  await params.inject({ request, signal: params.signal });
  logger.info({ platform: params.platform, scheduledFor }, 'heartbeat: turn injected');
  return { kind: 'injected' };
}

/**
 * Runs the heartbeat until `signal` aborts (resolves then; returns at once when disabled). Times are now + k *
 * interval from the start, never drifting and never overlapping (a heartbeat still running when the next falls due
 * makes that one be skipped). A failed inject is one warn; the next time tries again.
 */
export async function runHeartbeat(params: {
  config: HeartbeatConfig;
  timeZone: string;
  file: string;
  inject: InjectTurn;
  clock: Clock;
  signal: AbortSignal;
  logger: Logger;
  /** Cap on the checklist's characters (agent.context_file_max_chars; default HEARTBEAT_MAX_CHARS). */
  maxChars?: number;
}): Promise<void> {
  const { config, logger } = params;
  const platform = config.target;
  if (!config.enabled || platform === undefined) return;
  const parsed = config.quiet_hours === undefined ? undefined : parseQuietHours({ text: config.quiet_hours });
  if (parsed !== undefined && !parsed.ok) {
    logger.warn({ quietHours: config.quiet_hours }, `heartbeat: quiet_hours ignored: ${parsed.error}`);
  }
  const quiet = parsed?.ok === true ? parsed.quiet : undefined;
  logger.info({ everyMs: config.interval, platform, quietHours: config.quiet_hours }, 'heartbeat: started');
  await runOnGrid({
    everyMs: config.interval,
    clock: params.clock,
    signal: params.signal,
    tick: async ({ scheduledFor }) => {
      await heartbeatTick({ file: params.file, platform, quiet, timeZone: params.timeZone, scheduledFor, inject: params.inject, signal: params.signal, logger, ...(params.maxChars !== undefined ? { maxChars: params.maxChars } : {}) });
    },
    onError: ({ error }) => logger.warn({ err: errorMessage(error) }, 'heartbeat: the turn could not be injected'),
    onSkipped: ({ count }) => logger.info({ count }, 'heartbeat: still running when the next fell due, skipped'),
  });
}

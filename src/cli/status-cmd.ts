import { existsSync } from 'node:fs';
import os from 'node:os';
import type { HealthReport } from '../gateway/http/server.js';
import { configFingerprint, knownValid, rememberValid } from '../home/config-stamp.js';
import { readGatewayState } from '../home/gateway-state.js';
import type { EnvSnapshot } from '../home/hermes-home.js';
import { DEFAULT_PROFILE_NAME, resolveHermesHome, resolveProfile, type Profile } from '../home/index.js';
import { listProfiles } from '../home/list-profiles.js';
import { runningPid } from '../home/pid-lock.js';
import { formatUptime } from '../home/uptime.js';
import { buildId } from '../util/build-id.js';
import { println, type CliIO } from './output.js';
import { nextJobLine } from './status-jobs.js';
import { assertProfileExists } from './unknown-profile.js';
import { errorMessage } from '../util/error-text.js';

/** The running gateway's /healthz, or why it could not be read. */
export async function health(params: { host: string; port: number }): Promise<HealthReport | string> {
  try {
    const response = await fetch(`http://${params.host.includes(':') ? `[${params.host}]` : params.host}:${params.port}/healthz`, { signal: AbortSignal.timeout(2000) });
    return (await response.json()) as HealthReport;
  } catch (error) {
    return `health check failed: ${errorMessage(error)}`;
  }
}

/**
 * "" when the profile's config loads, else why not and what to run: a stopped gateway with a broken config cannot
 * start. A config that loaded before, unchanged since under this build, is not loaded again (home/config-stamp.ts).
 */
async function configProblem(params: { profile: Profile; env: EnvSnapshot }): Promise<string> {
  // Neither file: the defaults, which always load (nothing to read, nothing to interpolate).
  if (!existsSync(params.profile.configPath) && !existsSync(params.profile.envPath)) return '';
  const build = buildId();
  const fingerprint = build === null ? undefined : configFingerprint({ ...params, buildId: build });
  if (fingerprint !== undefined && knownValid({ profile: params.profile, fingerprint })) return '';
  try {
    // Loaded here, not at the top: the schema (zod, yaml) is most of what `hermes status` costs.
    const { loadAppConfig } = await import('../app/config-schema.js');
    await loadAppConfig(params);
    // Noted only when the files did not change while they were loaded.
    if (fingerprint !== undefined && build !== null && configFingerprint({ ...params, buildId: build }) === fingerprint) rememberValid({ profile: params.profile, fingerprint });
    return '';
  } catch (error) {
    const run = `hermes${params.profile.name === DEFAULT_PROFILE_NAME ? '' : ` -p ${params.profile.name}`} config validate`;
    return `; its config is invalid, so it cannot start: ${errorMessage(error)} (details: \`${run}\`)`;
  }
}

/** "  model gpt-4o @ api.openai.com: unreachable — ..." plus the fix, for one running gateway. */
function modelLine(params: { model: NonNullable<HealthReport['model']> }): string {
  const { model } = params;
  const word = { ok: 'answers', warn: 'answers, with a warning', fail: 'NOT usable', unknown: 'not checked yet' }[model.state];
  const detail = model.state === 'ok' || model.state === 'unknown' ? '' : ` — ${model.detail}`;
  const fix = model.fix !== undefined && model.state !== 'ok' ? `\n    fix: ${model.fix}` : '';
  return `  model ${model.label}: ${word}${detail}${fix}`;
}

/**
 * "  disk: the store cannot write (SQLITE_FULL during recordInbound) since 12:03:04Z" lines for a degraded disk,
 * then one "  fix: ..." line that says what to do about it.
 */
function diskLines(params: { disk: NonNullable<HealthReport['disk']>; profileDir: string }): string[] {
  const { disk, profileDir } = params;
  if (disk.state === 'ok') return [];
  const recovers = 'the gateway notices within seconds and answers the messages it turned away';
  const fix =
    disk.reason === 'disk full'
      ? `free space on the filesystem that holds ${profileDir} (df -h shows it); ${recovers}`
      : disk.reason === 'read-only filesystem'
        ? `make the filesystem that holds ${profileDir} writable again (remount it read-write); ${recovers}`
        : `check the disk that holds ${profileDir} (dmesg shows I/O errors); ${recovers}`;
  return [...disk.problems.map((p) => `  disk: ${p.detail} since ${p.since}`), `  fix: ${fix}`];
}

/**
 * Where to ask a running gateway for /healthz: what its gateway.json says when that file is its own (same pid),
 * else the configured fixed port (gateway.json cannot be written on a full disk); null when neither is known.
 */
export async function healthAddress(params: { profile: Profile; pid: number; env: EnvSnapshot }): Promise<{ host: string; port: number } | null> {
  const state = readGatewayState({ profile: params.profile });
  if (state !== undefined && state.pid === params.pid) return state.http;
  try {
    const { loadAppConfig } = await import('../app/config-schema.js');
    const { config } = await loadAppConfig({ profile: params.profile, env: params.env });
    const http = config.gateway.http;
    return http.enabled && http.port !== 0 ? { host: http.host, port: http.port } : null;
  } catch {
    return null;
  }
}

/**
 * `hermes status`: every profile, whether its gateway runs (pid, uptime) and each adapter's state and last
 * error from /healthz, and whether its model endpoint answers; a stopped one whose config does not load says so.
 * Exits 1 when a running gateway reports a fatal adapter, a model endpoint it cannot use, or a disk that refuses
 * writes ("degraded: disk full").
 */
export async function status(params: { io: CliIO; profile?: string }): Promise<number> {
  const hermesHome = resolveHermesHome({ env: params.io.env, homedir: os.homedir() });
  // Every profile is shown whatever -p says, but a -p naming none (a typo) is said, as every other command says it.
  if (params.profile !== undefined) assertProfileExists({ profile: resolveProfile({ hermesHome, name: params.profile }), hermesHome });
  let exit = 0;
  for (const profile of listProfiles({ hermesHome })) {
    const pid = runningPid({ profile });
    // The profile's soonest job, under its other lines.
    const jobs = async (): Promise<void> => {
      const line = await nextJobLine({ profile });
      if (line !== undefined) println({ stream: params.io.stdout, text: line });
    };
    if (pid === null) {
      if (existsSync(profile.configPath) || profile.name === 'default') println({ stream: params.io.stdout, text: `${profile.name}: stopped${await configProblem({ profile, env: params.io.env })}` });
      await jobs();
      continue;
    }
    const address = await healthAddress({ profile, pid, env: params.io.env });
    if (!address) {
      println({ stream: params.io.stdout, text: `${profile.name}: running (pid ${pid}), no HTTP server to ask for details` });
      await jobs();
      continue;
    }
    const report = await health(address);
    if (typeof report === 'string') {
      println({ stream: params.io.stdout, text: `${profile.name}: running (pid ${pid}), ${report}` });
      await jobs();
      continue;
    }
    const disk = report.disk?.state === 'degraded' ? report.disk : undefined;
    const reason = report.status === 'degraded' && disk ? `: ${disk.reason}` : '';
    println({ stream: params.io.stdout, text: `${profile.name}: running (pid ${pid}, up ${formatUptime({ ms: report.uptimeSeconds * 1000 })}), ${report.status}${reason}` });
    for (const adapter of report.adapters) {
      if (adapter.state === 'fatal') exit = 1;
      println({ stream: params.io.stdout, text: `  ${adapter.name}: ${adapter.state}${adapter.lastError ? ` — ${adapter.lastError}` : ''}` });
    }
    if (report.mcp !== undefined) {
      const { mcpServerLine } = await import('../mcp/status-text.js');
      for (const server of report.mcp) println({ stream: params.io.stdout, text: `  mcp ${mcpServerLine({ server })}` });
    }
    if (report.model) {
      // A gateway whose model cannot be reached answers nobody: as bad as a fatal adapter.
      if (report.model.state === 'fail') exit = 1;
      println({ stream: params.io.stdout, text: modelLine({ model: report.model }) });
    }
    if (disk) {
      // A gateway that cannot journal refuses every message: as bad as a fatal adapter.
      exit = 1;
      for (const line of diskLines({ disk, profileDir: profile.dir })) println({ stream: params.io.stdout, text: line });
    }
    await jobs();
  }
  return exit;
}

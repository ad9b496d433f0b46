import { existsSync } from 'node:fs';
import os from 'node:os';
import type { HealthReport } from '../http/server.js';
import { readGatewayState } from '../home/gateway-state.js';
import { loadConfig } from '../config/load.js';
import type { EnvSnapshot } from '../home/hermes-home.js';
import { DEFAULT_PROFILE_NAME, resolveHermesHome, type Profile } from '../home/index.js';
import { listProfiles } from '../home/list-profiles.js';
import { runningPid } from '../home/pid-lock.js';
import { formatUptime } from '../home/uptime.js';
import { println, type CliIO } from './output.js';

/** The running gateway's /healthz, or why it could not be read. */
async function health(params: { host: string; port: number }): Promise<HealthReport | string> {
  try {
    const response = await fetch(`http://${params.host.includes(':') ? `[${params.host}]` : params.host}:${params.port}/healthz`, { signal: AbortSignal.timeout(2000) });
    return (await response.json()) as HealthReport;
  } catch (error) {
    return `health check failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** "" when the profile's config loads, else why not and what to run: a stopped gateway with a broken config cannot start. */
async function configProblem(params: { profile: Profile; env: EnvSnapshot }): Promise<string> {
  try {
    await loadConfig(params);
    return '';
  } catch (error) {
    const run = `hermes${params.profile.name === DEFAULT_PROFILE_NAME ? '' : ` -p ${params.profile.name}`} config validate`;
    return `; its config is invalid, so it cannot start: ${error instanceof Error ? error.message : String(error)} (details: \`${run}\`)`;
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
 * `hermes status`: every profile, whether its gateway runs (pid, uptime) and each adapter's state and last
 * error from /healthz, and whether its model endpoint answers; a stopped one whose config does not load says so.
 * Exits 1 when a running gateway reports a fatal adapter or a model endpoint it cannot use.
 */
export async function status(params: { io: CliIO }): Promise<number> {
  const hermesHome = resolveHermesHome({ env: params.io.env, homedir: os.homedir() });
  let exit = 0;
  for (const profile of listProfiles({ hermesHome })) {
    const pid = runningPid({ profile });
    if (pid === null) {
      if (existsSync(profile.configPath) || profile.name === 'default') println({ stream: params.io.stdout, text: `${profile.name}: stopped${await configProblem({ profile, env: params.io.env })}` });
      continue;
    }
    const state = readGatewayState({ profile });
    if (!state?.http) {
      println({ stream: params.io.stdout, text: `${profile.name}: running (pid ${pid}), no HTTP server to ask for details` });
      continue;
    }
    const report = await health(state.http);
    if (typeof report === 'string') {
      println({ stream: params.io.stdout, text: `${profile.name}: running (pid ${pid}), ${report}` });
      continue;
    }
    println({ stream: params.io.stdout, text: `${profile.name}: running (pid ${pid}, up ${formatUptime({ ms: report.uptimeSeconds * 1000 })}), ${report.status}` });
    for (const adapter of report.adapters) {
      if (adapter.state === 'fatal') exit = 1;
      println({ stream: params.io.stdout, text: `  ${adapter.name}: ${adapter.state}${adapter.lastError ? ` — ${adapter.lastError}` : ''}` });
    }
    if (report.model) {
      // A gateway whose model cannot be reached answers nobody: as bad as a fatal adapter.
      if (report.model.state === 'fail') exit = 1;
      println({ stream: params.io.stdout, text: modelLine({ model: report.model }) });
    }
  }
  return exit;
}

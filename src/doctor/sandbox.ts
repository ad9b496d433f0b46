import type { GatewayConfig } from '../config/schema.js';
import type { Profile } from '../home/profile.js';
import { exposedProfileFiles, terminalSandboxFor } from '../tools/sandbox/terminal-sandbox.js';
import { describeSandbox } from '../tools/sandbox/mode.js';
import type { ProbeResult } from '../tools/sandbox/probe.js';
import { line, type CheckLine } from '../core/check-line.js';
import { findOnPath } from '../util/on-path.js';

/** How the terminal tool runs: ✓ "bwrap (network off)", ! "none: <reason>; the terminal runs unconfined", ✗ bwrap required but not working. */
export function sandboxCheck(params: { config: GatewayConfig; profile: Profile; probe?: () => ProbeResult }): CheckLine {
  const name = 'terminal sandbox';
  const resolution = terminalSandboxFor(params);
  const detail = describeSandbox({ resolution });
  const { spec } = resolution;
  if (spec?.kind === 'bwrap') return line.ok(name, detail);
  if (spec?.kind === 'unavailable') {
    const fix = exposedProfileFiles({ workspace: params.config.tools.workspace, profile: params.profile }) !== undefined
      ? "Set tools.workspace to a folder outside HERMES_HOME (or inside the profile's workspace/)."
      : 'Install bubblewrap or enable user namespaces, or set tools.terminal.sandbox: none.';
    return line.fail(name, spec.reason, fix);
  }
  const fix = params.config.tools.terminal.sandbox === 'none'
    ? 'Set tools.terminal.sandbox: auto (with bubblewrap installed) to confine the model\'s commands.'
    : 'Install bubblewrap (apt-get install bubblewrap) and make sure user namespaces work, or set tools.terminal.sandbox: none to silence this.';
  return line.warn(name, detail, fix);
}

/** Workspace checkpoints (`checkpoints`): on with git on PATH; a warning when they are asked for but git is missing. */
export function checkpointsCheck(params: { config: GatewayConfig; searchPath?: string }): CheckLine {
  const name = 'checkpoints (/rollback)';
  if (!params.config.checkpoints.enabled) return line.ok(name, 'off (checkpoints.enabled: false)');
  const git = findOnPath({ name: 'git', searchPath: params.searchPath ?? process.env['PATH'] ?? '/usr/bin:/bin' });
  if (git === undefined) return line.warn(name, 'off: git is not installed, so no checkpoints are taken before the agent changes files', 'Install git (apt-get install git) to have /rollback.');
  return line.ok(name, `on, with ${git}; at most ${params.config.checkpoints.max_count} kept`);
}

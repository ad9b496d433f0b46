import type { GatewayConfig } from '../config/schema.js';
import type { Profile } from '../home/profile.js';
import { terminalSandboxFor } from '../gateway/terminal-sandbox.js';
import { describeSandbox } from '../tools/sandbox/mode.js';
import type { ProbeResult } from '../tools/sandbox/probe.js';
import { line, type CheckLine } from './types.js';

/** How the terminal tool runs: ✓ "bwrap (network off)", ! "none: <reason>; the terminal runs unconfined", ✗ bwrap required but not working. */
export function sandboxCheck(params: { config: GatewayConfig; profile: Profile; probe?: () => ProbeResult }): CheckLine {
  const name = 'terminal sandbox';
  const resolution = terminalSandboxFor(params);
  const detail = describeSandbox({ resolution });
  const { spec } = resolution;
  if (spec?.kind === 'bwrap') return line.ok(name, detail);
  if (spec?.kind === 'unavailable') return line.fail(name, spec.reason, 'Install bubblewrap or enable user namespaces, or set tools.terminal.sandbox: none.');
  const fix = params.config.tools.terminal.sandbox === 'none'
    ? 'Set tools.terminal.sandbox: auto (with bubblewrap installed) to confine the model\'s commands.'
    : 'Install bubblewrap (apt-get install bubblewrap) and make sure user namespaces work, or set tools.terminal.sandbox: none to silence this.';
  return line.warn(name, detail, fix);
}

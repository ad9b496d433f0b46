import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/schema.js';
import type { Profile } from '../home/profile.js';
import { resolveSandbox, type SandboxResolution } from '../tools/sandbox/mode.js';
import { probeBwrap, type ProbeResult } from '../tools/sandbox/probe.js';

/**
 * The terminal tool's sandbox for a profile's config: tools.terminal.sandbox / network resolved against the (cached)
 * bwrap probe; the whole HERMES_HOME (every profile) is hidden from the command.
 */
export function terminalSandboxFor(params: { config: GatewayConfig; profile: Profile; probe?: () => ProbeResult }): SandboxResolution {
  const { terminal } = params.config.tools;
  return resolveSandbox({ mode: terminal.sandbox, network: terminal.network, hide: [params.profile.hermesHome], probe: params.probe ?? (() => probeBwrap()) });
}

/** Logs the one start-up warning when the terminal runs unconfined (sandbox: none, or auto without a working bwrap). */
export function warnIfUnconfined(params: { resolution: SandboxResolution; logger: Logger }): void {
  const { resolution } = params;
  if (resolution.spec !== undefined) return;
  params.logger.warn({ reason: resolution.unconfinedReason }, `the terminal tool runs unconfined (${resolution.unconfinedReason ?? 'no sandbox'}): model-written commands can read and write whatever the gateway user can`);
}

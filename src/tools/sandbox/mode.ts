import fs from 'node:fs';
import path from 'node:path';
import type { ProbeResult } from './probe.js';
import type { SandboxSpec } from './spec.js';

/** tools.terminal.sandbox: auto (bwrap where it works), bwrap (required), none (unconfined). */
export type SandboxMode = 'auto' | 'bwrap' | 'none';

/** The resolved sandbox: the spec for ToolContext.terminal (undefined: unconfined) and why it is unconfined, when it is. */
export interface SandboxResolution {
  /** What the terminal tool runs under; undefined means unconfined. */
  readonly spec: SandboxSpec | undefined;
  /** Set when commands run unconfined: why (sandbox: none, or auto and bwrap does not work). */
  readonly unconfinedReason?: string;
}

/** The real path of a folder (symlinks followed) so the sandbox hides what is really there; as given when missing. */
function realDir(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** What to do when the sandbox is required but bwrap does not work. */
export function bwrapUnavailableMessage(params: { reason: string }): string {
  return (
    `the terminal sandbox (tools.terminal.sandbox: bwrap) does not work here: ${params.reason}. ` +
    'Install bubblewrap (apt-get install bubblewrap), enable unprivileged user namespaces ' +
    '(sysctl -w kernel.unprivileged_userns_clone=1 or user.max_user_namespaces), or set tools.terminal.sandbox: none ' +
    'in config.yaml to run commands unconfined.'
  );
}

/**
 * Resolves the configured mode against the probe: `auto` → bwrap when it works, else unconfined with the probe's
 * reason; `bwrap` → bwrap, or `unavailable` (every terminal call fails) when it does not work; `none` → unconfined.
 * `hide` is HERMES_HOME (every profile's files) and the service socket folders; each at its real path, once.
 */
export function resolveSandbox(params: { mode: SandboxMode; network: boolean; hide: readonly string[]; probe: () => ProbeResult }): SandboxResolution {
  if (params.mode === 'none') return { spec: undefined, unconfinedReason: 'tools.terminal.sandbox is none' };
  const probe = params.probe();
  if (probe.ok) return { spec: { kind: 'bwrap', bwrap: probe.bwrap, hide: [...new Set(params.hide.map(realDir))], network: params.network } };
  if (params.mode === 'bwrap') return { spec: { kind: 'unavailable', reason: bwrapUnavailableMessage({ reason: probe.reason }) } };
  return { spec: undefined, unconfinedReason: probe.reason };
}

/** One line saying how the terminal runs: "bwrap (network off)", or "none: <reason>; the terminal runs unconfined". */
export function describeSandbox(params: { resolution: SandboxResolution }): string {
  const { spec, unconfinedReason } = params.resolution;
  if (spec === undefined) return `none: ${unconfinedReason ?? 'no sandbox'}; the terminal runs unconfined`;
  if (spec.kind === 'unavailable') return `unavailable: ${spec.reason}`;
  return `bwrap (network ${spec.network ? 'on' : 'off'})`;
}

import type { GatewayConfig } from '../config/schema.js';
import type { MemoryTarget } from './capability.js';

/** The `memory.*` config as the memory layer uses it. */
export interface MemorySettings {
  readonly memoryEnabled: boolean;
  readonly userEnabled: boolean;
  readonly memoryCharLimit: number;
  readonly userCharLimit: number;
}

/** Both targets, in the order they are shown. */
export const memoryTargets: readonly MemoryTarget[] = ['memory', 'user'];

/** The memory settings of a config. */
export function memorySettingsFrom(params: { config: Pick<GatewayConfig, 'memory'> }): MemorySettings {
  const { memory } = params.config;
  return {
    memoryEnabled: memory.memory_enabled,
    userEnabled: memory.user_profile_enabled,
    memoryCharLimit: memory.memory_char_limit,
    userCharLimit: memory.user_char_limit,
  };
}

/** True when at least one of the two files is on (the `memory` tool is offered then). */
export function anyMemoryEnabled(params: { settings: MemorySettings }): boolean {
  return params.settings.memoryEnabled || params.settings.userEnabled;
}

/** What one target is: its file name, its limit, whether it is on and the config key that turns it on. */
export interface TargetInfo {
  readonly target: MemoryTarget;
  readonly fileName: 'MEMORY.md' | 'USER.md';
  readonly limit: number;
  readonly enabled: boolean;
  readonly enableKey: string;
  /** What the file is for, in a few words. */
  readonly title: string;
}

/** The file, limit and switch of `target`. */
export function targetInfo(params: { settings: MemorySettings; target: MemoryTarget }): TargetInfo {
  const { settings } = params;
  return params.target === 'memory'
    ? { target: 'memory', fileName: 'MEMORY.md', limit: settings.memoryCharLimit, enabled: settings.memoryEnabled, enableKey: 'memory.memory_enabled', title: "the agent's notes" }
    : { target: 'user', fileName: 'USER.md', limit: settings.userCharLimit, enabled: settings.userEnabled, enableKey: 'memory.user_profile_enabled', title: 'what it knows about you' };
}

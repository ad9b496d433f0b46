import type { GatewayConfig } from '../../config/schema.js';
import type { Profile } from '../../home/profile.js';
import { memorySnapshot } from '../../memory/snapshot.js';
import type { PromptLayer } from './types.js';

/** The memory layer: MEMORY.md and USER.md as they are when the session starts (frozen with the session's prompt). */
export function memoryLayer(params: { profile: Profile; config: GatewayConfig }): PromptLayer {
  const { memory } = params.config;
  const text = memorySnapshot({
    memoriesDir: params.profile.memoriesDir,
    memoryEnabled: memory.memory_enabled,
    userEnabled: memory.user_profile_enabled,
    memoryCharLimit: memory.memory_char_limit,
    userCharLimit: memory.user_char_limit,
  });
  return { name: 'memory', text: text.trim() };
}
